"""The third held-back part of the pair decision's unseen pairs (issue 28, step 1): written
2026-12-06 21:45 UTC by a session that had not yet changed the decision, before any feature
of that session was built, and **never scored until the end of it**
(``scripts/eval_dedupe_unseen.py --fit --third-held-back``; ``--held-back`` until the fourth
part, ``tests/dedupe_pairs_held_back_4.py``, was written on 2026-12-07).

The first held-back part (``tests/dedupe_pairs_unseen.py`` ``HELD_BACK``) and the next one
(``NEXT_GROUPS``) were scored by earlier sessions and are spent. Each group here starts from
one source fact — a LoCoMo dev fact (``../shared/datasets/locomo-dev``: the question, its
answer and the evidence turns, reworded; facts no other labelled pair uses) or one of the
kinds issue 28 lists (little shared wording, a label and its definition, English / Chinese /
mixed, another verb with the number written another way, Chinese restated with a measure
word, first person against third person) — and holds its duplicates (``same``), where one
exists a changed value (``contradicts``), and other facts about the same person
(``distinct``). Written as a user would say them, not toward the decision's features.
"""

# ruff: noqa: E501 - one pair per line reads best
from __future__ import annotations

from tests.dedupe_pairs import Pair
from tests.dedupe_pairs_unseen import GROUPS, NEXT_GROUPS, C, D, S, _g

HELD_BACK_GROUPS: tuple[tuple[Pair, ...], ...] = tuple(
    tuple(g)
    for g in (
        # conv-26: Caroline's necklace was a gift from her grandma in Sweden.
        _g(("little_overlap", S, "Caroline's necklace was a gift from her grandmother in Sweden", "Caroline wears a necklace her Swedish grandma gave her"),
           ("cross_lingual", S, "Caroline's necklace was a gift from her grandmother in Sweden", "卡罗琳的项链是她在瑞典的奶奶送的"),
           ("change", C, "Caroline's necklace was a gift from her grandmother in Sweden", "Caroline's necklace was a gift from her mother"),
           ("neighbour", D, "Caroline's necklace was a gift from her grandmother in Sweden", "Caroline moved from Sweden four years ago")),
        # conv-26: Caroline made a stained glass window for a local church.
        _g(("verb_number", S, "Caroline made a stained glass window for a local church", "Caroline created a piece of stained-glass art for a church near her"),
           ("mixed", S, "Caroline made a stained glass window for a local church", "Caroline 给当地一座教堂做了一扇 stained glass window"),
           ("neighbour", D, "Caroline made a stained glass window for a local church", "Caroline painted a mural for a local school")),
        # conv-42: Nate watched "Little Women" and loved it.
        _g(("little_overlap", S, "Nate watched Little Women recently and loved it", "Nate thought the film Little Women was great"),
           ("cross_lingual", S, "Nate watched Little Women recently and loved it", "内特最近看了《小妇人》，很喜欢"),
           ("change", C, "Nate watched Little Women recently and loved it", "Nate watched Little Women recently and found it boring"),
           ("neighbour", D, "Nate watched Little Women recently and loved it", "Nate is reading a fantasy series full of magic")),
        # conv-41: John volunteered at a career fair at a local school.
        _g(("verb_number", S, "John volunteered at a career fair at a local school last weekend", "Last weekend John helped out at a school's careers fair"),
           ("cross_lingual", S, "John volunteered at a career fair at a local school last weekend", "约翰上周末在本地一所学校的职业招聘会上做志愿者"),
           ("neighbour", D, "John volunteered at a career fair at a local school last weekend", "John gave a talk about politics at a local school")),
        # conv-41: Maria is planning a ring-toss tournament and a chili cook-off for the shelter.
        _g(("little_overlap", S, "Maria is organising a ring-toss tournament for the homeless shelter's fundraiser", "For the shelter fundraiser, Maria is setting up a ring toss competition"),
           ("zh_paraphrase", S, "玛丽亚在为收容所的募捐活动筹划套圈比赛", "玛丽亚正张罗着给收容所筹款会办一场套圈比赛"),
           ("neighbour", D, "Maria is organising a ring-toss tournament for the homeless shelter's fundraiser", "Maria is organising a chili cook-off for the homeless shelter's fundraiser")),
        # conv-41: John has been blogging about politics and the government.
        _g(("little_overlap", S, "John has been blogging about politics and the government", "John writes posts on his blog about political issues"),
           ("cross_lingual", S, "John has been blogging about politics and the government", "约翰最近一直在写关于政治和政府的博客"),
           ("change", C, "John has been blogging about politics and the government", "John has stopped blogging about politics"),
           ("neighbour", D, "John has been blogging about politics and the government", "John wants to run for office")),
        # conv-26: Matt Patterson performed at the concert for Melanie's daughter's birthday.
        _g(("verb_number", S, "Matt Patterson sang at the concert Melanie took her daughter to for her birthday", "For her daughter's birthday Melanie took her to see Matt Patterson perform"),
           ("change", C, "Matt Patterson sang at the concert Melanie took her daughter to for her birthday", "Taylor Swift sang at the concert Melanie took her daughter to for her birthday"),
           ("neighbour", D, "Matt Patterson sang at the concert Melanie took her daughter to for her birthday", "Melanie's daughter is learning to play the guitar")),
        # conv-43: John writes motivational quotes and strategies on a whiteboard.
        _g(("little_overlap", S, "John keeps motivational quotes and workout strategies on a whiteboard", "To stay motivated, John writes inspiring sayings and training plans on his whiteboard"),
           ("mixed", S, "John keeps motivational quotes and workout strategies on a whiteboard", "John 在白板上写了一些 motivational quotes 来激励自己"),
           ("neighbour", D, "John keeps motivational quotes and workout strategies on a whiteboard", "John keeps a signed basketball from his teammates on a shelf")),
        # conv-43: John hurt his ankle last season and needed physical therapy.
        _g(("verb_number", S, "John hurt his ankle last season and needed physical therapy", "Last season John injured his ankle and had to do physiotherapy"),
           ("cross_lingual", S, "John hurt his ankle last season and needed physical therapy", "约翰上赛季伤了脚踝，做了物理治疗"),
           ("change", C, "John hurt his ankle last season and needed physical therapy", "John hurt his knee last season and needed physical therapy"),
           ("neighbour", D, "John hurt his ankle last season and needed physical therapy", "John's team had an intense season with tough losses and great wins")),
        # conv-26: Melanie goes to the beach with her kids once or twice a year.
        _g(("verb_number", S, "Melanie takes her kids to the beach once or twice a year", "Melanie and her children go to the beach one or two times every year"),
           ("zh_measure", S, "梅兰妮每年带孩子去一两次海边", "梅兰妮一年会带孩子们去海滩一到两趟"),
           ("change", C, "Melanie takes her kids to the beach once or twice a year", "Melanie takes her kids to the beach every weekend"),
           ("neighbour", D, "Melanie takes her kids to the beach once or twice a year", "Melanie takes her kids camping in the mountains")),
        # conv-41: Maria has two dogs, Coco and Shadow.
        _g(("verb_number", S, "Maria has a dog named Shadow", "Shadow is the name of Maria's dog"),
           ("mixed", S, "Maria has a dog named Shadow", "玛丽亚养了一只叫 Shadow 的狗"),
           ("neighbour", D, "Maria has a dog named Shadow", "Maria has a dog named Coco")),
        # conv-41: John's car broke down on his way to work last Friday.
        _g(("little_overlap", S, "John's car broke down last Friday on his way to work", "John's car died on the drive to the office last Friday"),
           ("cross_lingual", S, "John's car broke down last Friday on his way to work", "约翰的车上周五在上班路上抛锚了"),
           ("neighbour", D, "John's car broke down last Friday on his way to work", "John's windshield got broken on his way home")),
        # conv-42: Joanna made a dairy-free vanilla cake with coconut cream frosting.
        _g(("little_overlap", S, "Joanna made a dairy-free vanilla cake with strawberry filling and coconut cream frosting", "Joanna baked a vanilla cake without dairy, filled with strawberries and topped with coconut cream"),
           ("change", C, "Joanna's cake had coconut cream frosting", "Joanna's cake had chocolate frosting"),
           ("neighbour", D, "Joanna made a dairy-free vanilla cake with strawberry filling and coconut cream frosting", "Joanna made dairy-free chocolate cupcakes with raspberries")),
        # conv-42: Nate feeds his turtles strawberries and gives them baths.
        _g(("zh_paraphrase", S, "内特喜欢喂他的乌龟吃草莓", "内特爱给自家的乌龟喂草莓"),
           ("cross_lingual", S, "Nate likes feeding his turtles strawberries", "内特喜欢喂他的乌龟吃草莓"),
           ("neighbour", D, "Nate likes feeding his turtles strawberries", "Nate likes giving his turtles a bath")),
        # conv-41: John's family enjoys board games and movie nights.
        _g(("little_overlap", S, "John's family enjoys board games and movie nights at home", "At home, John and his family like to play board games and watch films together"),
           ("neighbour", D, "John's family enjoys board games and movie nights at home", "John's family enjoys hiking in the park")),
        # The kinds, the user's own facts.
        _g(("label_definition", S, "The user is a pescatarian", "The user eats fish but no other meat"),
           ("neighbour", D, "The user is a pescatarian", "The user eats fish every Friday")),
        _g(("label_definition", S, "用户是路痴", "用户方向感很差，经常迷路"),
           ("neighbour", D, "用户是路痴", "用户经常开车")),
        _g(("label_definition", S, "The user is self-employed", "The user works for themselves"),
           ("change", C, "The user is self-employed", "The user works for a bank"),
           ("neighbour", D, "The user is self-employed", "The user works from home")),
        _g(("verb_number", S, "The user walks 10,000 steps a day", "The user gets in ten thousand steps daily"),
           ("change", C, "The user walks 10,000 steps a day", "The user walks 5,000 steps a day"),
           ("neighbour", D, "The user walks 10,000 steps a day", "The user sleeps 7 hours a night")),
        _g(("zh_measure", S, "用户每周游泳三次", "用户一个星期去游三回泳"),
           ("change", C, "用户每周游泳三次", "用户每周游泳一次"),
           ("neighbour", D, "用户每周游泳三次", "用户每周打两次网球")),
        _g(("person_shift", S, "I'm allergic to cats", "The user has a cat allergy"),
           ("change", C, "I'm allergic to cats", "The user is not allergic to cats"),
           ("neighbour", D, "I'm allergic to cats", "The user is allergic to dust")),
        _g(("person_shift", S, "我每天早上喝一杯黑咖啡", "用户每天早晨都会喝杯黑咖啡"),
           ("mixed", S, "The user has a black coffee every morning", "用户每天早上喝一杯 black coffee"),
           ("change", C, "我每天早上喝一杯黑咖啡", "用户每天早上喝一杯拿铁"),
           ("neighbour", D, "我每天早上喝一杯黑咖啡", "用户每天晚上喝一杯牛奶")),
        _g(("cross_lingual", S, "The user's daughter starts university in September", "用户的女儿九月份上大学"),
           ("change", C, "The user's daughter starts university in September", "The user's daughter starts university in October"),
           ("neighbour", D, "The user's daughter starts university in September", "The user's son starts high school in September")),
        _g(("verb_number", S, "The user spent about 300 euros on a new bike", "The user paid roughly €300 for a new bicycle"),
           ("change", C, "The user spent about 300 euros on a new bike", "The user spent about 800 euros on a new bike"),
           ("neighbour", D, "The user spent about 300 euros on a new bike", "The user sold their old bike for 100 euros")),
    )
)  # fmt: skip
"""The third held-back part (24 groups): in neither the development groups nor the first two
held-back parts; scored once, at the end of the session that wrote it."""

FIRST_HELD_BACK_GROUP = len(GROUPS) + len(NEXT_GROUPS)
"""Group numbers of this part start after those of the other unseen groups (folds never mix)."""


def held_back() -> list[tuple[int, Pair]]:
    """(group, pair) of :data:`HELD_BACK_GROUPS`, numbered after the other unseen groups."""
    return [(FIRST_HELD_BACK_GROUP + i, p) for i, g in enumerate(HELD_BACK_GROUPS) for p in g]
