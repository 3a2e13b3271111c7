"""The sixth held-back part of the pair decision's unseen pairs (issue 28, step 1): written
2026-12-07, 09:40–09:50 UTC, by a helper session that had **not seen the decision's
features** (it did not read ``app/``, ``docs/DEDUPE.md``, ``scripts/calibrate_dedupe.py``,
``scripts/eval_dedupe_unseen.py`` or the fifth held-back part, and ran neither the service
nor any script of the decision on these pairs), and **never scored until the end** of the
session that receives it. Source facts the fifth part may also start from were swapped out: a
program said only whether key words or sentences occur in that part, and how much of a
sentence's wording does, without showing its text.

Each group starts from one source fact — a LoCoMo fact (the dev split of the LoCoMo
conversations: the question, its answer and the evidence turns, reworded; facts no other
labelled pair file uses) or an everyday agent-memory fact (motion sickness, a pet, employer,
schedule, travel plan, money, medication, partner, diet, city, tools, a child's school year)
— and holds its duplicates (``same``: little shared wording, an idiom, a label and its
definition, another verb with the number written another way, a date written another way,
first person against third, English / Chinese, code-mixed, Chinese restated with other words
or a measure word), changed values (``contradicts``: another name, number, employer, date,
frequency, opinion, a move, a break-up, "no longer", a cancelled or moved plan) and other
facts about the same person (``distinct``, with hard ones: the same frame with another
compatible thing, ``same_frame``; a word inside a compound, ``compound_head``: 豚鼠 / 老鼠,
"intermittent fasting" / "fast food", a bearded dragon / dragon fruit, Linear / linear
algebra; the same fact about another person, ``other_person``; two occurrences of a
recurring event, ``other_event_day``; the same amount in another slot, ``same_value``).
Written as users and agents say things, not toward any feature.
"""

# ruff: noqa: E501 - one pair per line reads best
from __future__ import annotations

from tests.dedupe_pairs import Pair
from tests.dedupe_pairs_held_back_5 import FIFTH_GROUPS, FIRST_FIFTH_GROUP
from tests.dedupe_pairs_unseen import C, D, S, _g

SIXTH_GROUPS: tuple[tuple[Pair, ...], ...] = tuple(
    tuple(g)
    for g in (
        # conv-26: Caroline has a guinea pig called Oscar.
        _g(("cross_lingual", S, "Caroline has a guinea pig named Oscar", "卡罗琳养了一只豚鼠，叫奥斯卡"),
           ("change", C, "Caroline's guinea pig is called Oscar", "Caroline's guinea pig is called Peanut"),
           ("compound_head", D, "卡罗琳养了一只豚鼠", "卡罗琳小时候被老鼠咬过")),
        # conv-26: Melanie has three children.
        _g(("verb_number", S, "Melanie has three kids", "Melanie is a mother of 3"),
           ("zh_measure", S, "梅兰妮有三个孩子", "梅兰妮家里有仨娃"),
           ("neighbour", D, "梅兰妮有三个孩子", "梅兰妮的儿子在一次公路旅行中出了车祸")),
        # conv-26: "Brave" by Sara Bareilles means a lot to Caroline; it is about courage.
        _g(("little_overlap", S, 'The song "Brave" by Sara Bareilles means a lot to Caroline', "Whenever Caroline hears Sara Bareilles sing Brave, it reminds her to be courageous"),
           ("mixed", S, 'The song "Brave" by Sara Bareilles means a lot to Caroline', "Sara Bareilles 的《Brave》对卡罗琳意义很大"),
           ("same_frame", D, 'Caroline loves "Brave" by Sara Bareilles', 'Caroline loves "Shake It Off" by Taylor Swift')),
        # conv-30: Gina lost her job at DoorDash in January 2023.
        _g(("idiom", S, "Gina lost her job at DoorDash in January 2023", "DoorDash let Gina go in January 2023"),
           ("other_person", D, "Gina lost her job at DoorDash in January 2023", "Jon was laid off from the bank in January 2023"),
           ("neighbour", D, "吉娜2023年1月丢了工作", "吉娜2023年5月拿到了一份时尚实习")),
        # conv-43: Tim went to the Smoky Mountains in 2022.
        _g(("little_overlap", S, "Tim visited the Smoky Mountains in 2022", "Back in 2022 Tim made a trip to the Smokies"),
           ("cross_lingual", S, "Tim visited the Smoky Mountains in 2022", "蒂姆2022年去过大烟山"),
           ("change", C, "Tim's trip to the Smoky Mountains was in 2022", "Tim's trip to the Smoky Mountains was in 2019"),
           ("same_frame", D, "蒂姆2022年去过大烟山", "蒂姆去过加利福尼亚")),
        # conv-41: In 2022 John took a road trip along the Pacific Northwest coast and saw national parks.
        _g(("little_overlap", S, "In 2022 John went on a road trip along the Pacific Northwest coast and saw some national parks", "John drove up the coast of Oregon and Washington in 2022, stopping at national parks on the way"),
           ("cross_lingual", S, "John took a road trip through the Pacific Northwest in 2022", "2022年约翰自驾游去了美国西北太平洋沿岸"),
           ("change", C, "John's Pacific Northwest road trip was in 2022", "John's Pacific Northwest road trip was in 2020"),
           ("neighbour", D, "John took a road trip through the Pacific Northwest in 2022", "John is planning a trip to the East Coast")),
        # conv-41: John got his university degree the week before 2 April 2023.
        _g(("little_overlap", S, "John got his university degree at the end of March 2023", "John graduated from college in late March 2023"),
           ("zh_paraphrase", S, "约翰2023年3月底拿到了大学学位", "2023年3月下旬，约翰大学毕业了"),
           ("neighbour", D, "John got his university degree at the end of March 2023", "John went to a tech-for-good convention with colleagues in March 2023"),
           ("same_frame", D, "约翰2023年3月底拿到了大学学位", "约翰2023年3月底考到了驾照")),
        # conv-41: John's old area was hit by a flood the week before 7 July 2023; many homes were ruined.
        _g(("cross_lingual", S, "A flood hit John's old neighbourhood in early July 2023", "2023年7月初，约翰以前住的地方发了洪水"),
           ("zh_paraphrase", S, "约翰以前住的地方2023年7月初发了洪水", "2023年7月上旬，约翰原来住的那一片被大水淹了"),
           ("change", C, "The flood in John's old neighbourhood was in early July 2023", "The flood in John's old neighbourhood was in early May 2023"),
           ("neighbour", D, "A flood hit John's old neighbourhood in early July 2023", "John helped renovate his hometown's community centre in 2022"),
           ("neighbour", D, "约翰以前住的地方发了洪水", "约翰以前住的地方基础设施很差")),
        # conv-42: Nate's favourite game is the fantasy RPG Xenoblade Chronicles.
        _g(("cross_lingual", S, "Nate's favourite video game is Xenoblade Chronicles", "内特最喜欢的游戏是《异度神剑》"),
           ("change", C, "内特最喜欢的游戏是《异度神剑》", "内特最喜欢的游戏是《街头霸王》"),
           ("same_frame", D, "Nate's favourite video game is Xenoblade Chronicles", "Nate's favourite movie trilogy is The Lord of the Rings")),
        # conv-26: Melanie is a fan of Ed Sheeran (modern music).
        _g(("little_overlap", S, "Melanie is a fan of Ed Sheeran", "When it comes to modern music, Melanie really likes Ed Sheeran"),
           ("mixed", S, "Melanie is a fan of Ed Sheeran", "梅兰妮是 Ed Sheeran 的粉丝"),
           ("change", C, "梅兰妮是艾德·希兰的粉丝", "梅兰妮受不了艾德·希兰的歌"),
           ("same_frame", D, "梅兰妮是艾德·希兰的粉丝", "梅兰妮是阿黛尔的粉丝")),
        # conv-41: Maria's grandmother passed away the week before 6 March 2023.
        _g(("idiom", S, "Maria's grandmother passed away in early March 2023", "Maria lost her grandma at the beginning of March 2023"),
           ("zh_paraphrase", S, "玛丽亚的奶奶2023年3月初去世了", "2023年3月初，玛丽亚的祖母过世了"),
           ("change", C, "Maria's grandmother passed away in early March 2023", "Maria's grandmother passed away in 2019"),
           ("other_person", D, "Maria's grandmother passed away in early March 2023", "Maria's grandpa turned 90 in March 2023")),
        # ---- Everyday agent-memory facts.
        _g(("label_definition", S, "用户晕车", "用户坐车时间一长就头晕想吐"),
           ("cross_lingual", S, "用户晕车", "The user gets carsick"),
           ("change", C, "用户晕车", "用户现在已经不晕车了"),
           ("same_frame", D, "用户晕车", "用户晕血")),
        _g(("person_shift", S, "My bearded dragon is called Ziggy", "The user has a bearded dragon named Ziggy"),
           ("compound_head", D, "The user's bearded dragon is named Ziggy", "The user loves dragon fruit smoothies"),
           ("other_person", D, "The user's bearded dragon is named Ziggy", "The user's brother keeps a corn snake")),
        _g(("zh_paraphrase", S, "用户在一家律师事务所当律师助理", "用户的工作是给律所的律师打下手"),
           ("cross_lingual", S, "用户在一家律师事务所当律师助理", "The user works as a paralegal at a law firm"),
           ("change", C, "用户在一家律师事务所当律师助理", "用户辞掉了律所的工作，去考公务员了"),
           ("other_person", D, "用户在一家律师事务所当律师助理", "用户的姐姐是一名律师"),
           ("neighbour", D, "用户在一家律师事务所当律师助理", "用户在准备法律职业资格考试")),
        _g(("verb_number", S, "The user plays badminton every Thursday night", "Thursday evenings are the user's weekly badminton session"),
           ("change", C, "The user plays badminton every Thursday night", "用户的羽毛球改到每周三晚上打了"),
           ("other_event_day", D, "The user played badminton on Thursday, 3 December", "The user played badminton on Thursday, 10 December")),
        _g(("date_format", S, "The user flies to Sapporo on 7 February for a ski trip", "The user's flight to Sapporo for skiing is on Feb 7th"),
           ("cross_lingual", S, "The user flies to Sapporo on 7 February for a ski trip", "用户2月7号飞札幌去滑雪"),
           ("change", C, "The user flies to Sapporo on 7 February for a ski trip", "The user has called off the ski trip to Sapporo"),
           ("neighbour", D, "The user flies to Sapporo on 7 February for a ski trip", "The user went skiing in the Alps last winter")),
        _g(("verb_number", S, "The user's mortgage is £1,450 a month", "Each month the user pays fourteen hundred and fifty pounds toward the mortgage"),
           ("zh_measure", S, "用户每月房贷1450英镑", "用户每个月要还一千四百五十英镑的房贷"),
           ("same_value", D, "The user's mortgage payment is £1,450 a month", "The user has £1,450 left in their savings account")),
        _g(("cross_lingual", S, "The user takes metformin twice a day", "用户每天吃两次二甲双胍"),
           ("same_frame", D, "用户每天吃两次二甲双胍", "用户每天测两次血糖")),
        _g(("zh_paraphrase", S, "用户的女朋友叫林悦", "林悦是用户的女友"),
           ("cross_lingual", S, "用户的女朋友叫林悦", "The user's girlfriend is Lin Yue"),
           ("change", C, "用户的女朋友叫林悦", "用户和林悦已经分手了"),
           ("neighbour", D, "用户的女朋友叫林悦", "林悦在上海读研究生")),
        _g(("label_definition", S, "The user does 16:8 intermittent fasting", "The user only eats between noon and 8 pm and fasts the other sixteen hours"),
           ("cross_lingual", S, "The user does 16:8 intermittent fasting", "用户在做16:8轻断食，每天只在8小时内吃东西"),
           ("change", C, "The user does 16:8 intermittent fasting", "The user has stopped intermittent fasting and eats breakfast again"),
           ("compound_head", D, "The user does intermittent fasting", "The user eats fast food about once a week")),
        _g(("zh_paraphrase", S, "用户目前住在苏州", "用户现在在苏州安家"),
           ("cross_lingual", S, "用户目前住在苏州", "The user is based in Suzhou"),
           ("change", C, "用户目前住在苏州", "用户已经从苏州搬到无锡去了"),
           ("other_person", D, "用户目前住在苏州", "用户的父母住在苏州"),
           ("neighbour", D, "用户目前住在苏州", "用户是在苏州出生的")),
        _g(("person_shift", S, "We track all our issues in Linear", "The user's team uses Linear for issue tracking"),
           ("same_frame", D, "用户的团队用 Linear 管理任务", "用户的团队用 Slack 沟通"),
           ("compound_head", D, "The user's team uses Linear to track issues", "The user is taking a linear algebra course")),
        _g(("zh_paraphrase", S, "用户的儿子在读小学三年级", "用户家儿子今年上小学3年级"),
           ("cross_lingual", S, "用户的儿子在读小学三年级", "The user's son is in third grade"),
           ("change", C, "用户的儿子在读小学三年级", "用户的儿子在读小学五年级"),
           ("other_person", D, "用户的儿子在读小学三年级", "用户的侄女在读小学三年级")),
    )
)  # fmt: skip
"""The unspent sixth held-back part (in no other labelled file): scored once, at the end of
the session that receives it."""

FIRST_SIXTH_GROUP = FIRST_FIFTH_GROUP + len(FIFTH_GROUPS)
"""Group numbers of this part start after those of the fifth held-back part."""


def sixth_held_back() -> list[tuple[int, Pair]]:
    """(group, pair) of :data:`SIXTH_GROUPS`, numbered after the other held-back parts."""
    return [(FIRST_SIXTH_GROUP + i, p) for i, g in enumerate(SIXTH_GROUPS) for p in g]
