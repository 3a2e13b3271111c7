"""Labelled pairs written apart from the pair decision's features (issue 28, step 1): not used
to tune anything, so every figure on them is out of sample.

Each group starts from one source fact — a fact of the LoCoMo dev conversations
(``../shared/datasets/locomo-dev``, the question and its answer, reworded here) or of the
kinds issue 28 lists as missed — and holds the pairs written from it: the same fact told
another way (``same``), a changed value (``contradicts``) and a neighbouring fact
(``distinct``). Kinds: ``little_overlap`` (few shared words), ``label_definition``,
``cross_lingual`` (English / Chinese), ``verb_number`` (another verb and the number
written another way), ``zh_measure`` (a Chinese fact restated with other words and a measure
word), ``person_shift`` (first person / third person), ``change`` and ``neighbour``.

Groups are folds' units (a source fact is never in training and test at once); every
fifth group is **held back** (:data:`HELD_BACK`): scripts/eval_dedupe_unseen.py reports it
only with ``--held-back``, once, at the end.
"""

# ruff: noqa: E501 - one pair per line reads best
from __future__ import annotations

from tests.dedupe_pairs import Expect, Pair


def _g(*pairs: tuple[str, Expect, str, str]) -> list[Pair]:
    return [Pair(kind, expect, old, new) for kind, expect, old, new in pairs]


S, C, D = "same", "contradicts", "distinct"

GROUPS: tuple[tuple[Pair, ...], ...] = tuple(
    tuple(g)
    for g in (
        # LoCoMo conv-26: Melanie has practised art since 2016.
        _g(("little_overlap", S, "Melanie has been practising art since 2016", "Melanie took up art in 2016 and never stopped"),
           ("cross_lingual", S, "Melanie has been practising art since 2016", "梅兰妮从2016年起一直在搞艺术"),
           ("change", C, "Melanie has been practising art since 2016", "Melanie has been practising art since 2019"),
           ("neighbour", D, "Melanie has been practising art since 2016", "Melanie started pottery classes in 2023")),
        # conv-26: Melanie and her kids made a clay cup with a dog face.
        _g(("little_overlap", S, "Melanie and her kids made a clay cup with a dog face on it", "With her children, Melanie shaped a mug that looks like a dog"),
           ("neighbour", D, "Melanie and her kids made a clay cup with a dog face on it", "Melanie and her kids painted a sunset with a palm tree")),
        # conv-43: John's favourite book series is Harry Potter.
        _g(("label_definition", S, "John's favourite book series is Harry Potter", "The books John loves most are the ones about the boy wizard at Hogwarts"),
           ("cross_lingual", S, "John's favourite book series is Harry Potter", "约翰最喜欢的系列书是《哈利·波特》"),
           ("change", C, "John's favourite book series is Harry Potter", "John's favourite book series is The Lord of the Rings"),
           ("neighbour", D, "John's favourite book series is Harry Potter", "Tim is writing a fantasy novel")),
        # conv-42: Nate has won four video game tournaments.
        _g(("verb_number", S, "Nate has won four video game tournaments", "Nate took first place in 4 gaming tournaments"),
           ("cross_lingual", S, "Nate has won four video game tournaments", "内特赢过4次电子游戏比赛"),
           ("change", C, "Nate has won four video game tournaments", "Nate has won six video game tournaments"),
           ("neighbour", D, "Nate has won four video game tournaments", "Nate has four turtles")),
        # conv-41: Maria ran a 5K charity run.
        _g(("verb_number", S, "Maria ran a 5K charity run", "Maria took part in a five-kilometre run for charity"),
           ("zh_measure", S, "玛丽亚参加了一场5公里的慈善跑", "玛丽亚跑了一次五公里慈善长跑"),
           ("change", C, "Maria ran a 5K charity run", "Maria ran a 10K charity run"),
           ("neighbour", D, "Maria ran a 5K charity run", "Maria volunteers at a homeless shelter")),
        # conv-41: John lost his job at the mechanical engineering company.
        _g(("little_overlap", S, "John lost his job at the mechanical engineering company", "The engineering firm let John go"),
           ("cross_lingual", S, "John lost his job at the mechanical engineering company", "约翰丢了在机械工程公司的工作"),
           ("change", C, "John works at the mechanical engineering company", "John no longer works at the mechanical engineering company"),
           ("neighbour", D, "John lost his job at the mechanical engineering company", "John joined the military")),
        # conv-30: Jon shut down his bank account for his business.
        _g(("little_overlap", S, "Jon closed his bank account because of his business", "For the sake of the business, Jon got rid of his bank account"),
           ("neighbour", D, "Jon closed his bank account because of his business", "Jon opened a dance studio")),
        # conv-42: Nate made vegan ice cream for his vegan diet group.
        _g(("little_overlap", S, "Nate made vegan ice cream and shared it with his vegan group", "Nate brought dairy-free ice cream he made to his plant-based diet group"),
           ("cross_lingual", S, "Nate made vegan ice cream and shared it with his vegan group", "内特做了纯素冰淇淋，分给了他的素食群"),
           ("neighbour", D, "Nate made vegan ice cream and shared it with his vegan group", "Joanna baked a chocolate raspberry tart")),
        # conv-43: John was introduced to basketball when his dad signed him up for a league.
        _g(("little_overlap", S, "John's dad signed him up for a local basketball league", "John started basketball because his father enrolled him in a neighbourhood league"),
           ("neighbour", D, "John's dad signed him up for a local basketball league", "John wants to win a basketball championship")),
        # conv-43: Tim visited the UK in the second week of November.
        _g(("cross_lingual", S, "Tim visited the UK in the second week of November", "蒂姆十一月第二周去了英国"),
           ("change", C, "Tim visited the UK in the second week of November", "Tim visited the UK in the first week of December"),
           ("neighbour", D, "Tim visited the UK in the second week of November", "Tim visited Chicago in August")),
        # The kinds: a preference in the first person and in the third.
        _g(("person_shift", S, "I prefer aisle seats on flights", "The user prefers aisle seats on flights"),
           ("person_shift", S, "The user likes oat milk in coffee", "I like oat milk in my coffee"),
           ("change", C, "I prefer aisle seats on flights", "The user prefers window seats on flights"),
           ("neighbour", D, "I prefer aisle seats on flights", "The user prefers vegetarian meals on flights")),
        _g(("person_shift", S, "我喜欢靠过道的座位", "用户喜欢靠过道的座位"),
           ("person_shift", S, "用户每天早上喝一杯咖啡", "我每天早上喝杯咖啡"),
           ("change", C, "用户喜欢靠过道的座位", "用户喜欢靠窗的座位"),
           ("neighbour", D, "用户喜欢靠过道的座位", "用户喜欢吃素食")),
        # Another verb and a number written another way.
        _g(("verb_number", S, "The user pays 1,500 euros in rent every month", "The user's monthly rent comes to €1500"),
           ("verb_number", S, "The user's commute takes half an hour", "The user spends 30 minutes getting to work"),
           ("change", C, "The user pays 1,500 euros in rent every month", "The user pays 1,800 euros in rent every month"),
           ("neighbour", D, "The user pays 1,500 euros in rent every month", "The user's gym costs 50 euros a month")),
        _g(("verb_number", S, "The user owns three bikes", "The user has 3 bicycles"),
           ("verb_number", S, "The user sleeps about seven hours a night", "The user gets roughly 7 hours of sleep each night"),
           ("change", C, "The user owns three bikes", "The user owns five bikes"),
           ("neighbour", D, "The user owns three bikes", "The user owns three guitars")),
        # Chinese restated with other words and a measure word.
        _g(("zh_measure", S, "用户养了两只猫", "用户家里有2只猫咪"),
           ("zh_measure", S, "用户每周游三次泳", "用户一个星期去游泳3回"),
           ("change", C, "用户养了两只猫", "用户养了三只猫"),
           ("neighbour", D, "用户养了两只猫", "用户养了两条狗")),
        _g(("zh_measure", S, "用户每天喝两杯咖啡", "用户一天要喝2杯咖啡"),
           ("zh_measure", S, "用户有一辆特斯拉", "用户开一台特斯拉"),
           ("change", C, "用户每天喝两杯咖啡", "用户每天喝四杯咖啡"),
           ("neighbour", D, "用户每天喝两杯咖啡", "用户每天喝两杯茶")),
        # A label and its definition.
        _g(("label_definition", S, "The user is vegan", "The user eats no meat, fish, eggs or dairy"),
           ("label_definition", S, "用户是素食主义者", "用户不吃任何肉类"),
           ("change", C, "The user is vegan", "The user is not vegan any more"),
           ("neighbour", D, "The user is vegan", "The user is lactose intolerant")),
        _g(("label_definition", S, "The user is an early bird", "The user gets up before dawn and is most productive in the morning"),
           ("label_definition", S, "The user is left-handed", "The user writes with their left hand"),
           ("neighbour", D, "The user is an early bird", "The user goes to the gym in the evening")),
        # English / Chinese.
        _g(("cross_lingual", S, "The user lives in Hangzhou", "用户住在杭州"),
           ("cross_lingual", S, "用户在一家银行工作", "The user works at a bank"),
           ("change", C, "The user lives in Hangzhou", "用户住在苏州"),
           ("neighbour", D, "The user lives in Hangzhou", "用户的父母住在杭州")),
        _g(("cross_lingual", S, "The user is allergic to shellfish", "用户对贝类过敏"),
           ("cross_lingual", S, "用户不喝酒", "The user does not drink alcohol"),
           ("change", C, "The user does not drink alcohol", "用户喝酒"),
           ("neighbour", D, "The user is allergic to shellfish", "The user is allergic to cats")),
        # Little shared wording.
        _g(("little_overlap", S, "The user works night shifts", "The user's job keeps them up working overnight"),
           ("little_overlap", S, "The user hates crowded places", "Big crowds make the user uncomfortable"),
           ("neighbour", D, "The user works night shifts", "The user works at a hospital")),
        _g(("little_overlap", S, "用户不会开车", "用户没有驾照，也从没学过驾驶"),
           ("little_overlap", S, "用户怕坐飞机", "坐飞机让用户很紧张"),
           ("neighbour", D, "用户不会开车", "用户不会游泳")),
        # conv-26: Caroline is researching adoption agencies.
        _g(("little_overlap", S, "Caroline is looking into adoption agencies", "Caroline has started checking out agencies to adopt a child"),
           ("person_shift", S, "I'm looking into adoption agencies", "Caroline is looking into adoption agencies"),
           ("neighbour", D, "Caroline is looking into adoption agencies", "Caroline went to a support group")),
        # conv-42: Joanna shared a chocolate raspberry tart with an almond flour crust.
        _g(("little_overlap", S, "Joanna baked a chocolate raspberry tart with an almond flour crust", "Joanna made a tart of chocolate ganache and fresh raspberries on an almond crust"),
           ("cross_lingual", S, "Joanna baked a chocolate raspberry tart", "乔安娜烤了一个巧克力覆盆子挞"),
           ("neighbour", D, "Joanna baked a chocolate raspberry tart", "Joanna wrote a movie script")),
        # conv-41: Maria took up community work with her church friends on August 4, 2023.
        _g(("verb_number", S, "Maria started community work with her church friends on August 4, 2023", "Maria began volunteering with friends from church on 4 Aug 2023"),
           ("change", C, "Maria started community work with her church friends on August 4, 2023", "Maria started community work with her church friends on August 14, 2023"),
           ("neighbour", D, "Maria started community work with her church friends on August 4, 2023", "Maria went camping with her church friends")),
    )
)  # fmt: skip

HELD_BACK: tuple[int, ...] = tuple(i for i in range(len(GROUPS)) if i % 5 == 4)
"""Indexes of the groups held back until the end."""


def development() -> list[tuple[int, Pair]]:
    """(group, pair) of the groups not held back."""
    return [(i, p) for i, g in enumerate(GROUPS) if i not in HELD_BACK for p in g]


def held_back() -> list[tuple[int, Pair]]:
    """(group, pair) of the held-back groups."""
    return [(i, p) for i, g in enumerate(GROUPS) if i in HELD_BACK for p in g]
