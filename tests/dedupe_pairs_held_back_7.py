"""The seventh held-back part of the pair decision's unseen pairs (issue 28, step 1): written
2026-12-07, 12:50–12:56 UTC (``date -u`` on the session's machine), by a helper session that
had **not seen the decision's features** (it did not read ``app/``, ``docs/DEDUPE.md``,
``scripts/calibrate_dedupe.py``, ``scripts/eval_dedupe_unseen.py`` or the pair-decision tests
under ``tests/services/memory/``, and ran neither the service nor any script of the decision on
these pairs), and **never scored until the end** of the session that receives it. The other
labelled pair files were read only for their format and so that no source fact here is one of
theirs.

Each group starts from one source fact — a LoCoMo fact (the dev split of the LoCoMo
conversations: the question, its answer and the evidence turns, reworded; facts no other
labelled pair file uses) or an everyday agent-memory fact (knee surgery, an emergency contact,
saving for a flat, a holiday trip, hearing, job, a pet, a renovation, a morning habit, how to
reach the user, a card's due day, an in-law moving in, a sleep aid) — and holds its duplicates
(``same``: little shared wording, an idiom, a label and its definition, another verb with the
number written another way, a date written another way, first person against third, English /
Chinese, code-mixed, Chinese restated with other words or a measure word), changed values
(``contradicts``: another position, opinion, city, amount, employer, result, person, a plan
called off or moved, "no longer") and other facts about the same person (``distinct``, with
hard ones: the same frame with another compatible thing, ``same_frame``; a word inside a
compound, ``compound_head``; the same fact about another person, ``other_person``; two
occurrences of a recurring event, ``other_event_day``; the same amount or day in another slot,
``same_value``). Written as users and agents say things, not toward any feature.
"""

# ruff: noqa: E501 - one pair per line reads best
from __future__ import annotations

from tests.dedupe_pairs import Pair
from tests.dedupe_pairs_dev_6 import DEV6_GROUPS, FIRST_DEV6_GROUP
from tests.dedupe_pairs_unseen import C, D, S, _g

SEVENTH_GROUPS: tuple[tuple[Pair, ...], ...] = tuple(
    tuple(g)
    for g in (
        # conv-43: John plays shooting guard for the team he signed with (May 2023).
        _g(("label_definition", S, "John plays shooting guard", "On the court John is the two-guard, the player whose main job is scoring from the perimeter"),
           ("cross_lingual", S, "John plays shooting guard for his team", "约翰在队里打得分后卫"),
           ("change", C, "约翰在球队里打得分后卫", "约翰现在改打控球后卫了"),
           ("same_frame", D, "约翰在队里打得分后卫", "约翰高中的时候打小前锋")),
        # conv-43: John made a soup and seasoned it with sage (August 2023).
        _g(("little_overlap", S, "John made a tasty soup with sage recently", "John has been trying out recipes and cooked a soup flavoured with sage"),
           ("compound_head", D, "约翰最近做了一锅汤", "约翰很爱吃汤圆"),
           ("neighbour", D, "John made a soup with sage", "John cooked a slow cooker meal last week")),
        # conv-42: A movie blew Nate's mind: "Inception" (October 2022).
        _g(("idiom", S, "Nate watched Inception and loved it", "Inception totally blew Nate's mind"),
           ("cross_lingual", S, "Nate recently watched Inception and was amazed by it", "内特最近看了《盗梦空间》，被震撼到了"),
           ("change", C, "Nate thought Inception was amazing", "Nate found Inception confusing and didn't like it much"),
           ("same_frame", D, "内特最近看了《盗梦空间》", "内特最近看了《星际穿越》")),
        # conv-42: Joanna's brother sent her a handwritten letter that brought back childhood memories.
        _g(("little_overlap", S, "Joanna got a handwritten letter from her brother", "Joanna's brother wrote to her by hand, and it took her back to when they were kids"),
           ("mixed", S, "Joanna received a handwritten letter from her brother", "Joanna 收到了她哥哥亲手写的信"),
           ("other_person", D, "乔安娜的哥哥给她写了一封手写信", "乔安娜的一位读者看了她的博客后给她写了信")),
        # conv-41: Maria made peach cobbler (December 2022).
        _g(("little_overlap", S, "Maria made a peach cobbler recently", "Not long ago Maria baked a cobbler with peaches"),
           ("cross_lingual", S, "Maria made some peach cobbler", "玛丽亚烤了一个蜜桃酥皮派"),
           ("same_frame", D, "Maria made a peach cobbler", "Maria made a banana split sundae"),
           ("other_person", D, "Maria made a peach cobbler", "Maria's mom made a peach cobbler")),
        # conv-26: Caroline gave a talk at a school about her transgender journey (the week before 9 June 2023).
        _g(("little_overlap", S, "Caroline gave a speech at a school about her transgender journey", "At a school event Caroline told the students about her experience of transitioning"),
           ("cross_lingual", S, "Caroline gave a speech at a school", "卡罗琳去一所学校做了一次演讲"),
           ("change", C, "卡罗琳6月初去学校做了演讲", "卡罗琳去学校演讲的活动推迟到7月了"),
           ("same_frame", D, "Caroline gave a talk at a school in June 2023", "Caroline gave a talk at an LGBTQ conference in July 2023")),
        # conv-26: Caroline makes abstract art.
        _g(("label_definition", S, "Caroline paints abstract art", "Caroline's paintings don't show real things; she works with colour, shape and streaks of paint"),
           ("zh_paraphrase", S, "卡罗琳画抽象画", "卡罗琳的画走的是抽象风格"),
           ("change", C, "Caroline paints abstract art", "Caroline has given up abstract painting and only paints portraits now"),
           ("neighbour", D, "Caroline paints abstract art", "Caroline painted a woman in a red shirt for a piece called Embracing Identity")),
        # conv-43: Tim suggested Edinburgh for the trip John's team is taking next month (September 2023).
        _g(("cross_lingual", S, "Tim recommended Edinburgh, Scotland for John's team trip", "蒂姆推荐约翰的球队去苏格兰的爱丁堡"),
           ("change", C, "蒂姆建议约翰的球队去爱丁堡", "蒂姆改主意了，建议约翰的球队去都柏林"),
           ("same_frame", D, "Tim suggested Edinburgh for John's team trip", "Tim suggested a Patrick Rothfuss novel for John to read on the trip")),
        # conv-42: Nate won a big Valorant tournament on the Saturday before 7 November 2022.
        _g(("date_format", S, "Nate won a big Valorant tournament on 5 November 2022", "Nate took the Valorant championship on Sat 11/5/2022"),
           ("mixed", S, "Nate won a big Valorant tournament on 5 November 2022", "内特2022年11月5号拿下了一个 Valorant 大赛的冠军"),
           ("change", C, "内特赢了11月那场 Valorant 大赛", "内特在11月那场 Valorant 大赛的决赛里输了"),
           ("other_event_day", D, "内特2022年11月赢了一场 Valorant 比赛", "Nate won a CS:GO tournament in January 2022")),
        # conv-30: Gina got noticed by fashion editors in early July 2023.
        _g(("zh_paraphrase", S, "2023年7月吉娜开始受到时尚编辑的关注", "吉娜2023年7月被时尚杂志的编辑们注意到了"),
           ("neighbour", D, "Gina got noticed by fashion editors", "Gina feels a lot of pressure to keep her business growing")),
        # conv-41: John took his kids to a military memorial the week before 3 August 2023.
        _g(("little_overlap", S, "John took his kids to a military memorial in late July 2023", "At the end of July 2023 John and his children visited a war memorial, and it left the kids awestruck"),
           ("cross_lingual", S, "John took his kids to a military memorial", "约翰带孩子们去参观了一处军人纪念碑"),
           ("same_frame", D, "约翰带孩子们去了军人纪念碑", "约翰去退伍军人医院看望了老兵")),
        # conv-30: Jon and Gina decided on 21 July 2023 to make dance content together.
        _g(("mixed", S, "Jon and Gina decided to collaborate on dance content", "Jon 和 Gina 决定合作一起做舞蹈内容"),
           ("change", C, "Jon and Gina are collaborating on dance content", "Jon and Gina have called off their dance content collaboration"),
           ("same_frame", D, "吉娜要和乔恩合作做舞蹈内容", "吉娜要帮乔恩打理他的社交媒体账号")),
        # ---- Everyday agent-memory facts.
        _g(("label_definition", S, "The user had ACL reconstruction on their left knee in March", "In March the user had surgery to rebuild the torn ligament inside their left knee"),
           ("cross_lingual", S, "The user had ACL surgery on their left knee", "用户左膝做过前交叉韧带重建手术"),
           ("same_frame", D, "用户左膝做过前交叉韧带手术", "用户右肩做过肩袖修复手术"),
           ("other_event_day", D, "The user had physio for their knee on Tuesday 24 November", "The user had physio for their knee on Tuesday 1 December")),
        _g(("zh_paraphrase", S, "用户的紧急联系人是她妹妹", "用户要是出了什么事，先联系她妹妹"),
           ("change", C, "用户的紧急联系人是她妹妹", "The user has changed her emergency contact to her husband"),
           ("other_person", D, "用户的紧急联系人是她妹妹", "用户妈妈的紧急联系人是用户"),
           ("neighbour", D, "The user's emergency contact is her younger sister", "The user's younger sister lives two streets away")),
        _g(("zh_measure", S, "用户每个月存三千块攒首付", "为了凑首付，用户每月固定存下3000元"),
           ("cross_lingual", S, "用户每个月存三千块攒首付", "The user puts away 3,000 yuan a month towards the down payment on a flat"),
           ("change", C, "用户每个月存三千块攒首付", "用户现在每个月能存五千了"),
           ("same_value", D, "用户每个月存三千块攒首付", "The user sends their parents 3,000 yuan a month to live on")),
        _g(("date_format", S, "The user is going to Dali for the National Day holiday", "The user will be in Dali over the October 1st Golden Week"),
           ("mixed", S, "用户国庆要去大理", "用户 Golden Week 打算去大理玩"),
           ("change", C, "用户国庆要去大理", "用户国庆不去大理了，机票已经退了"),
           ("other_event_day", D, "用户今年国庆要去大理", "用户前年五一去过大理"),
           ("other_person", D, "用户国庆要去大理", "用户的爸妈国庆要去大理")),
        _g(("person_shift", S, "I'm basically deaf in my left ear, so phone calls are hard for me", "The user has almost no hearing in their left ear"),
           ("cross_lingual", S, "The user is deaf in their left ear", "用户左耳听不见"),
           ("change", C, "The user is deaf in their left ear", "After the operation the user can hear normally with their left ear again"),
           ("same_frame", D, "The user is deaf in their left ear", "The user is short-sighted in their right eye")),
        _g(("zh_paraphrase", S, "用户在一家跨境电商公司当产品经理", "用户是做产品的，公司做跨境电商"),
           ("mixed", S, "用户在一家跨境电商公司当产品经理", "用户在一家跨境电商公司做 PM"),
           ("change", C, "用户在一家跨境电商公司当产品经理", "用户已经从电商公司离职，去一家游戏公司做运营了"),
           ("other_person", D, "The user is a product manager at a cross-border e-commerce company", "The user's husband is a product manager at a bank")),
        _g(("cross_lingual", S, "The user's cat is called Niangao", "用户的猫叫年糕"),
           ("compound_head", D, "用户的猫叫年糕", "用户过年爱吃炒年糕"),
           ("other_person", D, "用户的猫叫年糕", "The user's neighbour has a cat called Tangyuan")),
        _g(("date_format", S, "The contractor starts on the user's kitchen renovation on 2 March", "Work on the user's new kitchen begins March 2nd"),
           ("change", C, "The user's kitchen renovation starts on 2 March", "The user's kitchen renovation has been pushed back to mid-April"),
           ("same_frame", D, "The user is renovating the kitchen", "The user is renovating the bathroom next year"),
           ("neighbour", D, "用户家厨房在装修", "用户家刚换了一台洗碗机")),
        _g(("verb_number", S, "The user meditates for ten minutes every morning", "Each morning the user does a 10-minute meditation"),
           ("cross_lingual", S, "The user meditates for ten minutes every morning", "用户每天早上冥想十分钟"),
           ("change", C, "用户每天早上冥想十分钟", "用户最近已经不冥想了"),
           ("same_value", D, "The user meditates for ten minutes every morning", "The user walks ten minutes to the station every morning")),
        _g(("little_overlap", S, "The user would rather be reached on Telegram than WhatsApp", "Message the user on Telegram; they barely check WhatsApp"),
           ("change", C, "The user prefers to be contacted on Telegram", "The user deleted Telegram and only uses Signal now"),
           ("other_person", D, "The user prefers to be contacted on Telegram", "The user's manager only answers on Slack")),
        _g(("zh_paraphrase", S, "用户的信用卡每月22号还款", "每个月的22日是用户信用卡的还款日"),
           ("cross_lingual", S, "用户的信用卡每月22号还款", "The user's credit card payment is due on the 22nd of each month"),
           ("same_value", D, "用户的信用卡每月22号还款", "用户的工资每月22号到账"),
           ("compound_head", D, "用户的信用卡每月22号还款", "用户的健身卡下个月到期")),
        _g(("cross_lingual", S, "The user's father-in-law is moving in with them this spring", "用户的岳父今年春天要搬来和他们一起住"),
           ("change", C, "用户的岳父今年春天要搬来一起住", "用户的岳父决定还是留在老家，不搬来了"),
           ("other_person", D, "The user's father-in-law is moving in with them this spring", "The user's own dad is coming to stay for two weeks this spring")),
        _g(("zh_measure", S, "用户每天晚上吃一片褪黑素", "用户睡前都会吃1粒褪黑素"),
           ("other_person", D, "用户每天晚上吃一片褪黑素", "用户的老公每天晚上吃褪黑素"),
           ("same_frame", D, "用户每天晚上吃一片褪黑素", "用户每天早上吃一片复合维生素")),
    )
)  # fmt: skip
"""The unspent seventh held-back part (in no other labelled file): scored once, at the end
of the session that receives it."""

FIRST_SEVENTH_GROUP = FIRST_DEV6_GROUP + len(DEV6_GROUPS)
"""Group numbers of this part start after those of the sixth development part."""


def seventh_held_back() -> list[tuple[int, Pair]]:
    """(group, pair) of :data:`SEVENTH_GROUPS`, numbered after the other labelled parts."""
    return [(FIRST_SEVENTH_GROUP + i, p) for i, g in enumerate(SEVENTH_GROUPS) for p in g]
