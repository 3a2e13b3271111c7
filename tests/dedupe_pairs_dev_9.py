"""Development pairs for the review of a negation across English and Chinese (tester K1:
"The user doesn't have a car" / 用户有一只猫 opened a contradiction review; 13 of 14 such
reviews in the tester's replay were other facts, "has no siblings" / 用户有一个哥哥 the one
contradiction): written 2026-12-07, 22:25–22:40 UTC (``date -u`` on the session's machine) by
the helper that built the rule these pairs fit (docs/DEDUPE.md, sixteenth run), so **not
blind**: development data only, never a held-back part. Written before the rule's threshold
was fitted, with hard cases the rule was expected to miss (a negation contradicted by a
member of what it names with no dictionary link: "has never been abroad" / 去年去了日本,
"doesn't have any pets" / 养了一只猫).

Each group starts from one source fact, a negation in one language, and holds: the
negation contradicted in the other language (``contradicts``, kind ``change``), other facts
about the same person in the other language that the replay flagged (``distinct``, kind
``neighbour``: nothing in common but the person) and facts that share a word or a topic with
the negation without contradicting it (``distinct``, kind ``same_frame``), and, in some, the
negation restated in the other language (``same``, kind ``cross_lingual``). Grouped by source
fact for the grouped CV of scripts/eval_dedupe_unseen.py.
"""

# ruff: noqa: E501 - one pair per line reads best
from __future__ import annotations

from tests.dedupe_pairs import Pair
from tests.dedupe_pairs_held_back_8 import EIGHTH_GROUPS, FIRST_EIGHTH_GROUP
from tests.dedupe_pairs_unseen import C, D, S, _g

DEV9_GROUPS: tuple[tuple[Pair, ...], ...] = tuple(
    tuple(g)
    for g in (
        _g(("change", C, "The user doesn't have a car", "用户开车上班，车是去年买的"),
           ("neighbour", D, "The user doesn't have a car", "用户有一只猫"),
           ("neighbour", D, "The user doesn't have a car", "用户每周去两次健身房"),
           ("same_frame", D, "The user doesn't have a car", "用户骑自行车上班"),
           ("cross_lingual", S, "The user doesn't have a car", "用户没有车")),
        _g(("change", C, "The user has no siblings", "用户有一个哥哥"),
           ("neighbour", D, "The user has no siblings", "用户在一家银行上班"),
           ("neighbour", D, "The user has no siblings", "用户喜欢喝绿茶"),
           ("same_frame", D, "The user has no siblings", "用户有两个孩子")),
        _g(("change", C, "The user doesn't drink alcohol", "用户每天晚上喝一杯红酒"),
           ("neighbour", D, "The user doesn't drink alcohol", "用户住在杭州"),
           ("neighbour", D, "The user doesn't drink alcohol", "用户的女儿今年上小学"),
           ("same_frame", D, "The user doesn't drink alcohol", "用户每天早上喝咖啡")),
        _g(("change", C, "The user doesn't eat meat", "用户最爱吃红烧肉"),
           ("neighbour", D, "The user doesn't eat meat", "用户会弹钢琴"),
           ("neighbour", D, "The user doesn't eat meat", "用户养了一条狗"),
           ("same_frame", D, "The user doesn't eat meat", "用户每天吃很多蔬菜")),
        _g(("change", C, "The user has never been abroad", "用户去年去了日本旅游"),
           ("neighbour", D, "The user has never been abroad", "用户在学日语"),
           ("neighbour", D, "The user has never been abroad", "用户是一名护士")),
        _g(("change", C, "The user doesn't have any pets", "用户养了一只猫"),
           ("neighbour", D, "The user doesn't have any pets", "用户在上海工作"),
           ("same_frame", D, "The user doesn't have any pets", "用户很喜欢看动物纪录片")),
        _g(("change", C, "The user doesn't smoke", "用户一天抽一包烟"),
           ("neighbour", D, "The user doesn't smoke", "用户每天跑五公里"),
           ("neighbour", D, "The user doesn't smoke", "用户有一个儿子")),
        _g(("change", C, "The user isn't married", "用户的妻子是老师"),
           ("neighbour", D, "The user isn't married", "用户喜欢打篮球"),
           ("same_frame", D, "The user isn't married", "用户的妹妹去年结婚了")),
        _g(("change", C, "The user can't swim", "用户每周游三次泳"),
           ("neighbour", D, "The user can't swim", "用户在一家医院工作"),
           ("same_frame", D, "The user can't swim", "用户会骑自行车")),
        _g(("change", C, "The user doesn't like coffee", "用户每天都要喝两杯咖啡，很喜欢"),
           ("neighbour", D, "The user doesn't like coffee", "用户住在北京"),
           ("same_frame", D, "The user doesn't like coffee", "用户喜欢喝茶")),
        _g(("change", C, "The user doesn't play any instruments", "用户会弹吉他"),
           ("neighbour", D, "The user doesn't play any instruments", "用户每天坐地铁上班"),
           ("same_frame", D, "The user doesn't play any instruments", "用户喜欢听古典音乐")),
        _g(("change", C, "The user has no children", "用户的儿子今年五岁"),
           ("neighbour", D, "The user has no children", "用户有一辆电动车"),
           ("neighbour", D, "The user has no children", "用户喜欢看科幻电影")),
        _g(("change", C, "The user doesn't speak French", "用户法语说得很流利"),
           ("neighbour", D, "The user doesn't speak French", "用户养了两只兔子"),
           ("same_frame", D, "The user doesn't speak French", "用户会说西班牙语")),
        _g(("change", C, "The user doesn't work on weekends", "用户周六也要上班"),
           ("neighbour", D, "The user doesn't work on weekends", "用户的生日是三月五日"),
           ("same_frame", D, "The user doesn't work on weekends", "用户周末常去爬山")),
        _g(("change", C, "The user has never run a marathon", "用户去年跑完了北京马拉松"),
           ("neighbour", D, "The user has never run a marathon", "用户在学做饭"),
           ("same_frame", D, "The user has never run a marathon", "用户每天早上跑步")),
        _g(("change", C, "用户不吃辣", "The user loves spicy Sichuan food"),
           ("neighbour", D, "用户不吃辣", "The user works as a software engineer"),
           ("neighbour", D, "用户不吃辣", "The user has a cat named Mochi"),
           ("same_frame", D, "用户不吃辣", "The user cooks dinner at home most days")),
        _g(("change", C, "用户没有驾照", "The user got their driving licence last year"),
           ("neighbour", D, "用户没有驾照", "The user lives in Shenzhen"),
           ("same_frame", D, "用户没有驾照", "The user takes the bus to work")),
        _g(("change", C, "用户不会做饭", "The user cooks dinner for the family every night"),
           ("neighbour", D, "用户不会做饭", "The user plays tennis on Sundays"),
           ("same_frame", D, "用户不会做饭", "The user orders takeaway most evenings")),
        _g(("change", C, "用户不喜欢狗", "The user adores dogs"),
           ("neighbour", D, "用户不喜欢狗", "The user is a teacher"),
           ("same_frame", D, "用户不喜欢狗", "The user has a cat")),
        _g(("change", C, "用户没有兄弟姐妹", "The user has an older sister"),
           ("neighbour", D, "用户没有兄弟姐妹", "The user drinks tea every morning"),
           ("neighbour", D, "用户没有兄弟姐妹", "The user's favourite colour is blue")),
        _g(("change", C, "用户从来不喝酒", "The user has a glass of beer with dinner"),
           ("neighbour", D, "用户从来不喝酒", "The user goes hiking every weekend"),
           ("same_frame", D, "用户从来不喝酒", "The user drinks a lot of water")),
        _g(("change", C, "用户没去过美国", "The user visited New York in 2019"),
           ("neighbour", D, "用户没去过美国", "The user is learning English"),
           ("neighbour", D, "用户没去过美国", "The user has two kids")),
        _g(("change", C, "用户不用苹果手机", "The user's phone is an iPhone 15"),
           ("neighbour", D, "用户不用苹果手机", "The user likes jazz"),
           ("same_frame", D, "用户不用苹果手机", "The user uses a Windows laptop")),
        _g(("change", C, "用户没有养宠物", "The user has a golden retriever"),
           ("neighbour", D, "用户没有养宠物", "The user works night shifts"),
           ("same_frame", D, "用户没有养宠物", "The user volunteers at an animal shelter")),
        _g(("change", C, "用户不住在北京", "The user lives in Beijing"),
           ("neighbour", D, "用户不住在北京", "The user likes swimming"),
           ("same_frame", D, "用户不住在北京", "The user works in Beijing")),
        _g(("change", C, "用户不抽烟", "The user smokes a few cigarettes a day"),
           ("neighbour", D, "用户不抽烟", "The user is allergic to peanuts"),
           ("neighbour", D, "用户不抽烟", "The user's son plays football")),
    )
)  # fmt: skip
"""Development pairs (people tune on them, by grouped CV), grouped by source fact."""

FIRST_DEV9_GROUP = FIRST_EIGHTH_GROUP + len(EIGHTH_GROUPS)
"""Group numbers of this part start after those of the eighth part."""


def dev9() -> list[tuple[int, Pair]]:
    """(group, pair) of :data:`DEV9_GROUPS`, numbered after the other labelled parts."""
    return [(FIRST_DEV9_GROUP + i, p) for i, g in enumerate(DEV9_GROUPS) for p in g]
