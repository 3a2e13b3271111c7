"""The fifth held-back part of the pair decision's unseen pairs (issue 28, step 1): written
2026-12-07, 00:50–01:00 UTC, just after the fourth (``tests/dedupe_pairs_held_back_4.py``), by a
helper session that had **not seen the decision's features** (it did not read
``app/services/memory/``, ``docs/DEDUPE.md`` or ``scripts/calibrate_dedupe.py``).

**Reserved for a future session: not to be scored in the session that received it** (the
fourth part is that session's held-back part). ``scripts/eval_dedupe_unseen.py
--fifth-held-back`` scores it, and refuses to unless ``HINDSIGHT_SPEND_FIFTH=1`` is set: set
it once, at the end of the session that spends this part, and say so in its report.

Written like the fourth part, from other facts: each group starts from one source fact — a
LoCoMo fact (the dev split of the LoCoMo conversations: the question, its answer and the evidence
turns, reworded; facts no other labelled pair uses) or an everyday agent-memory fact (diet,
allergies, employer, city, family, pets, schedules, tools) — and holds its duplicates
(``same``: little shared wording, a label and its definition, another verb with the number
written another way, first person against third, English / Chinese, code-mixed, Chinese
restated with other words and a measure word), changed values (``contradicts``: another
place, person, number, date, employer, pet's name, diet or allergy, "no longer",
relationship, a move) and other facts about the same person (``distinct``, with hard ones:
``same_frame``, the same frame with another compatible thing, and ``compound_head``, a word
inside a compound: "hot dogs" / "dogs", "牛奶" / "牛肉", "苹果手机" / "苹果"). Written as
users say things, not toward the decision's features.
"""

# ruff: noqa: E501 - one pair per line reads best
from __future__ import annotations

from tests.dedupe_pairs import Pair
from tests.dedupe_pairs_held_back_4 import FIRST_FOURTH_GROUP, FOURTH_GROUPS
from tests.dedupe_pairs_unseen import C, D, S, _g

FIFTH_GROUPS: tuple[tuple[Pair, ...], ...] = tuple(
    tuple(g)
    for g in (
        # conv-30: Jon started reading "The Lean Startup" in May 2023.
        _g(("little_overlap", S, "Jon is reading The Lean Startup", "The book Jon has on the go right now is The Lean Startup"),
           ("cross_lingual", S, "Jon is reading The Lean Startup", "乔恩正在读《精益创业》这本书"),
           ("change", C, "Jon started reading The Lean Startup in May 2023", "Jon started reading The Lean Startup in August 2023"),
           ("neighbour", D, "Jon is reading The Lean Startup", "Jon is learning marketing and analytics tools")),
        # conv-30: Jon's dance studio offers one-on-one mentoring and training to dancers.
        _g(("little_overlap", S, "Jon's dance studio offers one-on-one mentoring and training to dancers", "At Jon's studio, dancers can get individual coaching"),
           ("cross_lingual", S, "Jon's dance studio offers one-on-one mentoring and training to dancers", "乔恩的舞蹈工作室为舞者提供一对一的指导和训练"),
           ("same_frame", D, "Jon's dance studio offers one-on-one mentoring and training to dancers", "Jon's dance studio runs workshops and classes for local schools")),
        # conv-41: The homeless shelter gave Maria a medal for volunteering.
        _g(("little_overlap", S, "Maria received a medal for volunteering at the homeless shelter", "The homeless shelter honoured Maria's volunteer work with a medal"),
           ("cross_lingual", S, "Maria received a medal for volunteering at the homeless shelter", "玛丽亚因为在流浪者收容所做志愿者获得了一枚奖章"),
           ("neighbour", D, "Maria received a medal for volunteering at the homeless shelter", "Cindy and Laura wrote Maria notes of gratitude")),
        # conv-42: Nate has been playing Cyberpunk 2077 nonstop.
        _g(("little_overlap", S, "Nate has been playing Cyberpunk 2077 nonstop", "Nate can't put down Cyberpunk 2077 these days"),
           ("cross_lingual", S, "Nate has been playing Cyberpunk 2077 nonstop", "内特最近一直在玩《赛博朋克2077》"),
           ("same_frame", D, "Nate has been playing Cyberpunk 2077 nonstop", "Nate played Catan at a game convention")),
        # conv-43: Tim uses the Pomodoro technique to prepare for exams.
        _g(("label_definition", S, "Tim uses the Pomodoro technique when studying for exams", "Tim studies for exams in 25-minute bursts with short breaks in between"),
           ("mixed", S, "Tim uses the Pomodoro technique when studying for exams", "Tim 准备考试的时候用 Pomodoro 番茄工作法"),
           ("neighbour", D, "Tim uses the Pomodoro technique when studying for exams", "Tim pictures his goals to stay motivated while studying")),
        _g(("little_overlap", S, "The user loves dogs", "The user is a huge dog lover"),
           ("cross_lingual", S, "The user loves dogs", "用户特别喜欢狗"),
           ("compound_head", D, "The user loves dogs", "The user loves hot dogs")),
        _g(("little_overlap", S, "The user codes in VS Code", "Visual Studio Code is the editor the user writes code in"),
           ("change", C, "The user's editor is VS Code", "The user switched from VS Code to Neovim"),
           ("neighbour", D, "The user codes in VS Code", "The user makes design mockups in Figma")),
        _g(("little_overlap", S, "The user's older brother lives in Singapore", "The user has an elder brother based in Singapore"),
           ("cross_lingual", S, "The user's older brother lives in Singapore", "用户的哥哥住在新加坡"),
           ("change", C, "The user's older brother lives in Singapore", "The user's older brother moved from Singapore back to London"),
           ("neighbour", D, "The user's older brother lives in Singapore", "The user's older brother is a pilot")),
        _g(("verb_number", S, "The user has visited 23 countries", "The user has been to twenty-three countries"),
           ("cross_lingual", S, "The user has visited 23 countries", "用户去过23个国家"),
           ("change", C, "The user has visited 23 countries", "The user has visited 25 countries"),
           ("same_frame", D, "The user has visited 23 countries", "The user has lived in 3 countries")),
        # conv-42: Nate likes action and sci-fi movies best.
        _g(("little_overlap", S, "Nate enjoys action and sci-fi movies the most", "Nate's top film genres are action and science fiction"),
           ("mixed", S, "Nate enjoys action and sci-fi movies the most", "Nate 最爱看 action 和 sci-fi 电影"),
           ("change", C, "Nate enjoys action and sci-fi movies the most", "Nate enjoys romantic comedies the most"),
           ("same_frame", D, "Nate enjoys action and sci-fi movies the most", "Nate enjoys books full of adventure and magic")),
        # conv-43: John signed with the Minnesota Wolves on 21 May 2023.
        _g(("verb_number", S, "John signed with the Minnesota Wolves on 21 May 2023", "On May 21st, 2023 John put pen to paper with the Minnesota Wolves"),
           ("cross_lingual", S, "John signed with the Minnesota Wolves on 21 May 2023", "约翰2023年5月21日和明尼苏达狼队签了约"),
           ("change", C, "John plays for the Minnesota Wolves", "John plays for the Chicago Bulls"),
           ("neighbour", D, "John signed with the Minnesota Wolves on 21 May 2023", "John signed a shoe and gear deal with Nike")),
        # conv-41: Maria met Jean on 24 February 2023.
        _g(("verb_number", S, "Maria met Jean on February 24, 2023", "Maria got to know Jean on 24/02/2023"),
           ("zh_paraphrase", S, "玛丽亚2023年2月24日认识了琼", "2023年2月24号，玛丽亚结识了琼"),
           ("change", C, "Maria met Jean on February 24, 2023", "Maria met Jean on March 24, 2023"),
           ("neighbour", D, "Maria met Jean on February 24, 2023", "Jean had gone through a divorce and lost her job before she met Maria")),
        # conv-41: Maria's aunt helped her family with money in hard times and inspired her volunteering.
        _g(("little_overlap", S, "Maria's aunt gave her family money when they were going through hard times", "When Maria was young and money was tight, her aunt helped them out financially"),
           ("cross_lingual", S, "Maria's aunt gave her family money when they were going through hard times", "玛丽亚小时候家里困难，是她姑妈给了他们钱"),
           ("change", C, "It was Maria's aunt who helped her family with money in hard times", "It was Maria's grandfather who helped her family with money in hard times"),
           ("same_frame", D, "Maria's aunt gave her family money when they were going through hard times", "Maria's aunt inspired her to start volunteering")),
        # conv-41: Maria volunteers at a local dog shelter once a month.
        _g(("verb_number", S, "Maria volunteers at a local dog shelter once a month", "Every month Maria spends a day helping at a dog shelter nearby"),
           ("zh_measure", S, "玛丽亚每个月去本地的狗狗收容所做一次志愿者", "玛丽亚一个月去附近的流浪狗救助站帮一回忙"),
           ("change", C, "Maria volunteers at a local dog shelter once a month", "Maria volunteers at a local dog shelter every week"),
           ("same_frame", D, "Maria volunteers at a local dog shelter once a month", "Maria helps out at a shelter for homeless people")),
        # conv-42: Joanna is a Spider-Man fan.
        _g(("cross_lingual", S, "Joanna loves Spider-Man", "乔安娜是蜘蛛侠的铁杆粉丝"),
           ("change", C, "Joanna's favourite superhero is Spider-Man", "Joanna's favourite superhero is Batman"),
           ("change", C, "Joanna's favourite superhero is Spider-Man", "乔安娜最喜欢的超级英雄是 Iron Man"),
           ("neighbour", D, "Joanna loves Spider-Man", "Joanna writes screenplays")),
        # conv-42: Joanna first watched "Eternal Sunshine of the Spotless Mind" in 2019.
        _g(("verb_number", S, "Joanna first watched Eternal Sunshine of the Spotless Mind in 2019", "Joanna saw Eternal Sunshine of the Spotless Mind for the first time back in 2019"),
           ("cross_lingual", S, "Joanna first watched Eternal Sunshine of the Spotless Mind in 2019", "乔安娜2019年第一次看了《美丽心灵的永恒阳光》"),
           ("change", C, "Joanna first watched Eternal Sunshine of the Spotless Mind in 2019", "Joanna first watched Eternal Sunshine of the Spotless Mind in 2015"),
           ("neighbour", D, "Joanna first watched Eternal Sunshine of the Spotless Mind in 2019", "Eternal Sunshine of the Spotless Mind is one of Joanna's favourite movies")),
        # conv-42: Nate took his turtles to the beach in Tampa.
        _g(("little_overlap", S, "Nate took his turtles to the beach in Tampa", "Nate brought his turtles along to a Tampa beach"),
           ("zh_paraphrase", S, "内特带他的乌龟去了坦帕的海滩", "内特把自家乌龟带到坦帕海边玩了一趟"),
           ("change", C, "The beach Nate took his turtles to was in Tampa", "Nate 带乌龟去的海滩其实在 Miami"),
           ("neighbour", D, "内特带他的乌龟去了坦帕的海滩", "内特说他的乌龟每天都能让他开心")),
        # conv-43: John married his girlfriend in a greenhouse.
        _g(("little_overlap", S, "John and his girlfriend got married in a greenhouse", "John's wedding ceremony took place in a greenhouse"),
           ("cross_lingual", S, "John and his girlfriend got married in a greenhouse", "约翰和女朋友在一间温室里举行了婚礼"),
           ("change", C, "John's wedding ceremony was in a greenhouse", "John's wedding ceremony was on a beach"),
           ("change", C, "约翰已经结婚了", "约翰还是单身"),
           ("neighbour", D, "John and his girlfriend got married in a greenhouse", "John's teammates gave him a signed basketball")),
        # conv-43: John's career high is 40 points in a game.
        _g(("verb_number", S, "John scored 40 points in a game, his career high", "John's career best is forty points in one game"),
           ("zh_measure", S, "约翰单场最高拿了40分", "约翰一场比赛最多得过四十分"),
           ("change", C, "John's career high is 40 points", "John's career high is 32 points"),
           ("change", C, "约翰单场最高拿了40分", "约翰单场最高拿了35分"),
           ("same_frame", D, "John's career high is 40 points", "John also set a career high in assists")),
        # conv-43: Tim joined a fantasy literature forum.
        _g(("little_overlap", S, "Tim joined an online forum about fantasy literature", "Tim signed up to a discussion board for fantasy books"),
           ("zh_paraphrase", S, "蒂姆加入了一个奇幻文学论坛", "蒂姆在网上加入了讨论奇幻小说的论坛"),
           ("change", C, "Tim is a member of a fantasy literature forum", "Tim has left the fantasy literature forum"),
           ("same_frame", D, "Tim joined an online forum about fantasy literature", "Tim writes articles about fantasy novels for an online magazine")),
        # conv-26: Melanie went to the museum on 5 July 2023.
        _g(("verb_number", S, "Melanie went to the museum on 5 July 2023", "On July 5th, 2023 Melanie visited the museum"),
           ("mixed", S, "Melanie went to the museum on 5 July 2023", "Melanie 2023年7月5日去了 museum"),
           ("change", C, "梅兰妮2023年7月5日去了博物馆", "梅兰妮去博物馆是在2023年8月5日"),
           ("same_frame", D, "Melanie went to the museum on 5 July 2023", "Melanie went to the park on 27 August 2023")),
        # conv-30: Gina's team won first place at regionals with the piece "Finding Freedom".
        _g(("little_overlap", S, "Gina's dance team won first place at a regional competition with a piece called Finding Freedom", "Gina's team took the top spot at regionals dancing Finding Freedom"),
           ("mixed", S, "Gina's dance team won first place at a regional competition with a piece called Finding Freedom", "Gina 的舞队凭 Finding Freedom 在地区赛拿了第一名"),
           ("change", C, "Gina's team won first place at regionals", "Gina's team came third at regionals"),
           ("neighbour", D, "Gina's team won first place at regionals", "Gina goes to dance classes with a group of friends")),
        # ---- Everyday agent-memory facts.
        _g(("zh_paraphrase", S, "用户对芒果过敏", "用户一吃芒果就过敏"),
           ("cross_lingual", S, "用户对芒果过敏", "The user is allergic to mango"),
           ("change", C, "用户对芒果过敏", "用户现在吃芒果已经不过敏了"),
           ("same_frame", D, "用户对芒果过敏", "用户对花粉过敏")),
        _g(("zh_paraphrase", S, "用户不吃牛肉", "用户从来不碰牛肉"),
           ("change", C, "用户不吃牛肉", "用户现在开始吃牛肉了"),
           ("compound_head", D, "用户不吃牛肉", "用户每天早上喝一杯牛奶")),
        _g(("person_shift", S, "I don't eat pork", "The user avoids pork"),
           ("change", C, "The user avoids pork", "The user no longer avoids pork"),
           ("same_frame", D, "The user avoids pork", "The user avoids fried food")),
        _g(("zh_paraphrase", S, "用户在京东上班", "用户就职于京东"),
           ("cross_lingual", S, "用户在京东上班", "The user works at JD.com"),
           ("change", C, "用户在京东上班", "用户跳槽去了美团"),
           ("neighbour", D, "用户在京东上班", "用户经常在京东上买东西")),
        _g(("zh_paraphrase", S, "用户住在成都", "用户在成都安了家"),
           ("change", C, "用户住在成都", "用户今年搬去重庆了"),
           ("change", C, "The user lives in Chengdu", "用户现在住在西安"),
           ("neighbour", D, "用户住在成都", "用户老家在重庆")),
        _g(("person_shift", S, "I live in Lisbon", "The user is based in Lisbon"),
           ("mixed", S, "The user lives in Lisbon", "用户住在 Lisbon"),
           ("change", C, "The user lives in Lisbon", "The user moved from Lisbon to Porto"),
           ("neighbour", D, "The user lives in Lisbon", "用户在学葡萄牙语")),
        _g(("zh_measure", S, "用户有一对双胞胎女儿", "用户家有两个双胞胎闺女"),
           ("cross_lingual", S, "用户有一对双胞胎女儿", "The user has twin daughters"),
           ("change", C, "用户有一对双胞胎女儿", "用户有一对双胞胎儿子"),
           ("neighbour", D, "用户有一对双胞胎女儿", "用户的妻子是牙医")),
        _g(("little_overlap", S, "The user has a parrot named Kiwi", "Kiwi is the user's pet parrot"),
           ("mixed", S, "The user has a parrot named Kiwi", "用户养了一只叫 Kiwi 的鹦鹉"),
           ("change", C, "The user's parrot is called Kiwi", "The user's parrot is called Mango"),
           ("compound_head", D, "The user has a parrot named Kiwi", "The user eats a kiwi fruit every morning")),
        _g(("zh_measure", S, "用户养了三条金鱼", "用户家鱼缸里有3尾金鱼"),
           ("change", C, "用户养了三条金鱼", "用户养的金鱼只剩一条了"),
           ("compound_head", D, "用户养了三条金鱼", "用户喜欢吃鱼")),
        _g(("verb_number", S, "The user's team meeting is every Monday at 2 pm", "The user meets with their team on Mondays at 14:00"),
           ("cross_lingual", S, "The user's team meeting is every Monday at 2 pm", "用户每周一下午两点开团队会议"),
           ("change", C, "The user's team meeting is every Monday at 2 pm", "The user's team meeting has moved to Wednesdays at 2 pm"),
           ("same_frame", D, "The user's team meeting is every Monday at 2 pm", "The user has a one-on-one with their manager every Monday at 3 pm")),
        _g(("zh_paraphrase", S, "用户每周六早上去菜市场买菜", "每个星期六上午，用户都会去菜场买菜"),
           ("change", C, "用户每周六早上去菜市场买菜", "用户现在改成每周日早上去菜市场"),
           ("same_frame", D, "用户每周六早上去菜市场买菜", "用户每周六晚上去电影院看电影")),
        _g(("little_overlap", S, "The user prefers tabs over spaces", "The user indents code with tabs rather than spaces"),
           ("mixed", S, "The user prefers tabs over spaces", "用户写代码喜欢用 tab 缩进，不用空格"),
           ("change", C, "The user prefers tabs over spaces", "The user now prefers spaces over tabs"),
           ("same_frame", D, "The user prefers tabs over spaces", "The user prefers a 100-character line limit")),
        _g(("mixed", S, "The user takes notes in Obsidian", "用户用 Obsidian 记笔记"),
           ("change", C, "The user takes notes in Obsidian", "The user moved their notes from Obsidian to Notion"),
           ("neighbour", D, "The user takes notes in Obsidian", "用户用 Google Calendar 管理日程")),
        _g(("zh_paraphrase", S, "用户用苹果手机", "用户的手机是苹果的"),
           ("cross_lingual", S, "用户用苹果手机", "The user uses an iPhone"),
           ("change", C, "用户用苹果手机", "用户换了一部小米手机"),
           ("compound_head", D, "用户用苹果手机", "用户每天吃一个苹果")),
        _g(("label_definition", S, "用户是全职妈妈", "用户辞职在家专门带孩子"),
           ("cross_lingual", S, "用户是全职妈妈", "The user is a stay-at-home mom"),
           ("change", C, "用户是全职妈妈", "用户回公司上班了，不再全职带娃"),
           ("neighbour", D, "用户是全职妈妈", "用户的孩子三岁了")),
        _g(("label_definition", S, "The user is a grandparent", "One of the user's children has a child of their own"),
           ("neighbour", D, "The user is a grandparent", "The user volunteers at the local library")),
        _g(("label_definition", S, "用户是个吃货", "用户特别爱吃，到哪儿都要找好吃的"),
           ("neighbour", D, "用户是个吃货", "用户会做川菜")),
    )
)  # fmt: skip
"""The fifth held-back part (in no other labelled file), kept for a future session."""

FIRST_FIFTH_GROUP = FIRST_FOURTH_GROUP + len(FOURTH_GROUPS)
"""Group numbers of this part start after those of the fourth part."""


def fifth_held_back() -> list[tuple[int, Pair]]:
    """(group, pair) of :data:`FIFTH_GROUPS`, numbered after the other held-back parts."""
    return [(FIRST_FIFTH_GROUP + i, p) for i, g in enumerate(FIFTH_GROUPS) for p in g]
