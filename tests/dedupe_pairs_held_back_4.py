"""The fourth held-back part of the pair decision's unseen pairs (issue 28, step 1): written
2026-12-07 00:50–01:45 UTC by a helper session that had **not seen the decision's features**
(it did not read ``app/services/memory/``, ``docs/DEDUPE.md`` or
``scripts/calibrate_dedupe.py``), and **never scored until the end** of the session that
receives it (``scripts/eval_dedupe_unseen.py --fit --held-back``).

The first three held-back parts (``tests/dedupe_pairs_unseen.py`` ``HELD_BACK`` and
``NEXT_GROUPS``, ``tests/dedupe_pairs_held_back.py``) are spent. Each group here starts from
one source fact — a LoCoMo dev fact (``../shared/datasets/locomo-dev``: the question, its
answer and the evidence turns, reworded; facts no other labelled pair uses) or an everyday
agent-memory fact (diet, allergies, employer, city, family, pets, schedules, tools and
languages) — and holds its duplicates (``same``: little shared wording, a label and its
definition, another verb with the number written another way, first person against third,
English / Chinese, code-mixed, Chinese restated with other words and a measure word), changed
values (``contradicts``: another place, person, colour, number, date, employer, pet's name,
diet or allergy, "no longer", relationship, a move) and other facts about the same person
(``distinct``, with hard ones: the same frame with another compatible thing, ``same_frame``,
and a word inside a compound, ``compound_head``: "hot dogs" / "dogs", "熊猫" / "猫").
Written as users say things, not toward the decision's features.
"""

# ruff: noqa: E501 - one pair per line reads best
from __future__ import annotations

from tests.dedupe_pairs import Pair
from tests.dedupe_pairs_held_back import FIRST_HELD_BACK_GROUP, HELD_BACK_GROUPS
from tests.dedupe_pairs_unseen import C, D, S, _g

FOURTH_GROUPS: tuple[tuple[Pair, ...], ...] = tuple(
    tuple(g)
    for g in (
        # conv-30: Jon lost his job as a banker on 19 January 2023.
        _g(("verb_number", S, "Jon lost his job as a banker on 19 January 2023", "On Jan 19, 2023 the bank Jon worked for let him go"),
           ("cross_lingual", S, "Jon lost his job as a banker on 19 January 2023", "乔恩在2023年1月19日丢了银行的工作"),
           ("change", C, "Jon lost his job as a banker on 19 January 2023", "Jon 是2023年3月19日丢了 banker 的工作"),
           ("neighbour", D, "Jon lost his job as a banker on 19 January 2023", "Jon wants to turn his passion for dancing into a business")),
        # conv-30: Gina's tattoo stands for freedom, dancing without caring what people think.
        _g(("little_overlap", S, "Gina's tattoo stands for freedom and dancing without worrying what people think", "The ink on Gina's skin is a reminder to be free and dance however she likes"),
           ("mixed", S, "Gina's tattoo stands for freedom and dancing without worrying what people think", "Gina 的 tattoo 象征自由：跳舞时不在乎别人怎么看"),
           ("neighbour", D, "Gina's tattoo stands for freedom and dancing without worrying what people think", "Gina won a trophy at a dance contest")),
        # conv-30: Jon was in Paris on 28 January 2023.
        _g(("verb_number", S, "Jon was in Paris on 28 January 2023", "Jon visited Paris on 1/28/2023"),
           ("zh_paraphrase", S, "乔恩2023年1月28日在巴黎", "2023年1月28号那天乔恩人在巴黎"),
           ("change", C, "Jon's trip to Paris was on 28 January 2023", "Jon's trip to Paris was on 28 February 2023"),
           ("same_frame", D, "Jon was in Paris on 28 January 2023", "Jon was in Rome in June 2023")),
        # conv-41: Maria donated her old car to a homeless shelter in December 2022.
        _g(("cross_lingual", S, "Maria donated her old car to a homeless shelter in December 2022", "玛丽亚2022年12月把她的旧车捐给了一家流浪者收容所"),
           ("change", C, "Maria donated her old car to a homeless shelter in December 2022", "Maria sold her old car to a dealer in December 2022"),
           ("neighbour", D, "Maria donated her old car to a homeless shelter in December 2022", "Maria dropped off some cakes at the homeless shelter")),
        # conv-41: John's one-year-old son is called Kyle.
        _g(("cross_lingual", S, "John's son Kyle is one year old", "约翰的儿子凯尔一岁了"),
           ("change", C, "John's son Kyle is one year old", "John's son Kyle is three years old"),
           ("neighbour", D, "John's son Kyle is one year old", "John has a daughter named Sara")),
        # conv-41: John's dog Max, with the family for 10 years, died in June 2023.
        _g(("little_overlap", S, "John's dog Max died in June 2023", "John had to say goodbye to Max, his dog, in June 2023"),
           ("zh_paraphrase", S, "约翰的狗麦克斯2023年6月死了", "2023年6月，约翰养的狗麦克斯离开了他们"),
           ("change", C, "John's dog Max was part of the family for 10 years", "John's dog Max was part of the family for 4 years"),
           ("neighbour", D, "John's dog Max died in June 2023", "John is thinking about adopting a rescue dog")),
        # conv-41: Maria does aerial yoga.
        _g(("label_definition", S, "Maria does aerial yoga", "Maria takes yoga classes where she hangs from silk hammocks in the air"),
           ("mixed", S, "Maria does aerial yoga", "Maria 在练 aerial yoga，就是吊在半空中做的瑜伽"),
           ("same_frame", D, "Maria does aerial yoga", "Maria does kundalini yoga"),
           ("neighbour", D, "Maria does aerial yoga", "Maria joined a gym in June 2023")),
        # conv-41: Maria was in a car accident on 2 July 2023.
        _g(("verb_number", S, "Maria was in a car accident on July 2, 2023", "Maria had a car crash on 2 Jul 2023"),
           ("zh_paraphrase", S, "玛丽亚2023年7月2日出了车祸", "2023年7月2号，玛丽亚遭遇了一起交通事故"),
           ("change", C, "Maria's car accident happened on July 2, 2023", "Maria's car accident happened on July 12, 2023"),
           ("neighbour", D, "Maria was in a car accident on July 2, 2023", "Maria had to help her cousin find a new place to live")),
        # conv-41: John works out with his family three times a week (boot camps since April 2023).
        _g(("verb_number", S, "John works out with his family three times a week", "John and his family exercise together 3 times weekly"),
           ("zh_measure", S, "约翰每周和家人一起锻炼三次", "约翰一个星期跟家里人练3回"),
           ("change", C, "John works out with his family three times a week", "John works out with his family once a week"),
           ("neighbour", D, "John works out with his family three times a week", "John takes his kids to the park a few times a week")),
        # conv-41: John joined the fire brigade as a volunteer.
        _g(("label_definition", S, "John is a volunteer firefighter", "John fights fires for his town's fire brigade without pay"),
           ("mixed", S, "John is a volunteer firefighter", "John 是一名志愿 firefighter"),
           ("neighbour", D, "John is a volunteer firefighter", "John's fundraiser bought the fire station a new fire truck")),
        # conv-42: Nate dyed his hair purple.
        _g(("little_overlap", S, "Nate dyed his hair purple", "Nate's hair is purple now after he coloured it"),
           ("cross_lingual", S, "Nate dyed his hair purple", "内特把头发染成了紫色"),
           ("change", C, "Nate's hair is dyed purple", "Nate 现在的头发染成了绿色"),
           ("neighbour", D, "Nate dyed his hair purple", "Nate is hosting a gaming party")),
        # conv-42: Joanna's stuffed dog is called Tilly, after a dog she had in Michigan.
        _g(("little_overlap", S, "Joanna named her stuffed toy dog Tilly after a dog she had in Michigan", "Joanna's plush pup is called Tilly, like the dog she owned back in Michigan"),
           ("zh_paraphrase", S, "乔安娜的毛绒小狗叫蒂莉", "乔安娜给她那只狗狗玩偶起名叫蒂莉"),
           ("change", C, "Joanna's stuffed toy dog is named Tilly", "Joanna's stuffed toy dog is named Daisy"),
           ("change", C, "乔安娜的毛绒小狗叫蒂莉", "乔安娜的毛绒小狗叫豆豆"),
           ("neighbour", D, "Joanna's stuffed toy dog is named Tilly", "Joanna is allergic to animals with fur")),
        # conv-42: Joanna went to Woodhaven in July 2022 and found old books at its library.
        _g(("little_overlap", S, "Joanna found a cool old book collection at the library in Woodhaven", "At Woodhaven's library Joanna discovered some interesting antique books"),
           ("mixed", S, "Joanna travelled to Woodhaven in July 2022", "Joanna 2022年7月去了 Woodhaven"),
           ("change", C, "Joanna's trip to Woodhaven was in July 2022", "Joanna's trip to Woodhaven was in March 2022"),
           ("neighbour", D, "Joanna travelled to Woodhaven in July 2022", "Joanna hiked to Whispering Falls in May 2022")),
        # conv-43: John started surfing five years ago.
        _g(("verb_number", S, "John has been surfing for five years", "John took up surfing 5 years ago and still surfs"),
           ("zh_measure", S, "约翰冲浪已经五年了", "约翰玩冲浪有5个年头了"),
           ("change", C, "John has been surfing for five years", "John has been surfing for two years"),
           ("neighbour", D, "John has been surfing for five years", "John has been playing basketball professionally since May 2023")),
        # conv-43: Tim is learning German.
        _g(("little_overlap", S, "Tim is learning German", "Tim is taking lessons to pick up the language spoken in Germany"),
           ("cross_lingual", S, "Tim is learning German", "蒂姆在学德语"),
           ("same_frame", D, "Tim is learning German", "Tim is learning the violin"),
           ("neighbour", D, "蒂姆在学德语", "蒂姆高中时学过法语")),
        # conv-43: Tim will spend a semester abroad in Galway, Ireland, leaving in February 2024.
        _g(("little_overlap", S, "Tim will spend a semester abroad in Galway", "Tim is going to study in Galway, Ireland, for one term"),
           ("zh_paraphrase", S, "蒂姆要去爱尔兰的戈尔韦交换一个学期", "蒂姆将在爱尔兰戈尔韦留学一学期"),
           ("change", C, "Tim will spend his semester abroad in Galway", "Tim will spend his semester abroad in Dublin"),
           ("change", C, "Tim leaves for Ireland in February 2024", "Tim leaves for Ireland in April 2024")),
        # conv-26: Melanie plays the clarinet.
        _g(("label_definition", S, "Melanie plays the clarinet", "Melanie is a clarinettist"),
           ("cross_lingual", S, "Melanie plays the clarinet", "梅兰妮会吹单簧管"),
           ("same_frame", D, "Melanie plays the clarinet", "Melanie plays the violin"),
           ("neighbour", D, "Melanie plays the clarinet", "Melanie enjoys listening to Bach and Mozart")),
        # conv-26: Melanie has two cats (Luna, Bailey) and a dog (Oliver).
        _g(("verb_number", S, "Melanie has two cats and a dog", "Melanie's pets are 2 cats and 1 dog"),
           ("zh_measure", S, "梅兰妮养了两只猫和一条狗", "梅兰妮家有2只猫、1条狗"),
           ("change", C, "Melanie has two cats and a dog", "Melanie has three cats and no dog"),
           ("compound_head", D, "梅兰妮养了两只猫和一条狗", "梅兰妮特别喜欢熊猫")),
        # conv-26: Melanie's daughter's birthday is 13 August.
        _g(("cross_lingual", S, "Melanie's daughter's birthday is on 13 August", "梅兰妮女儿的生日是8月13日"),
           ("change", C, "Melanie's daughter's birthday is on 13 August", "Melanie's daughter's birthday is on 31 August"),
           ("change", C, "梅兰妮女儿的生日是8月13日", "梅兰妮女儿的生日是9月13日")),
        # ---- Everyday agent-memory facts.
        _g(("person_shift", S, "I'm allergic to sesame", "The user has a sesame allergy"),
           ("cross_lingual", S, "The user is allergic to sesame", "用户对芝麻过敏"),
           ("change", C, "The user is allergic to sesame", "The user is no longer allergic to sesame"),
           ("same_frame", D, "The user is allergic to sesame", "The user is allergic to bee stings")),
        _g(("label_definition", S, "The user is on a keto diet", "The user eats hardly any carbs and a lot of fat"),
           ("mixed", S, "The user is on a keto diet", "用户在做 keto 饮食，基本不吃碳水"),
           ("change", C, "The user is on a keto diet", "The user gave up keto and eats bread and pasta again"),
           ("neighbour", D, "The user is on a keto diet", "用户每天吃一片 vitamin D")),
        _g(("zh_paraphrase", S, "用户在字节跳动工作", "用户是字节跳动的员工"),
           ("cross_lingual", S, "用户在字节跳动工作", "The user works at ByteDance"),
           ("change", C, "用户在字节跳动工作", "用户已经从字节跳动离职，去了华为"),
           ("neighbour", D, "用户在字节跳动工作", "用户的表哥在字节跳动工作"),
           ("same_frame", D, "用户在字节跳动工作", "用户用的是华为手机")),
        _g(("mixed", S, "The user works at Shopify", "用户在 Shopify 上班"),
           ("change", C, "The user works at Shopify", "The user left Shopify and now works at Stripe"),
           ("compound_head", D, "The user works at Shopify", "The user runs a small shop on Etsy")),
        _g(("little_overlap", S, "The user moved from Denver to Austin last year", "Last year the user left Denver and settled in Austin"),
           ("change", C, "The user lives in Austin", "The user has moved to Seattle"),
           ("neighbour", D, "The user lives in Austin", "The user grew up in Denver")),
        _g(("zh_paraphrase", S, "用户住在深圳", "用户的家在深圳"),
           ("cross_lingual", S, "用户住在深圳", "The user lives in Shenzhen"),
           ("change", C, "用户住在深圳", "用户上个月搬到广州住了"),
           ("neighbour", D, "用户住在深圳", "用户在香港上班")),
        _g(("person_shift", S, "My cat's name is Mochi", "The user has a cat named Mochi"),
           ("change", C, "The user's cat is called Mochi", "The user's cat is called Biscuit"),
           ("change", C, "The user's cat is called Mochi", "用户的猫叫 Tofu"),
           ("compound_head", D, "The user's cat is called Mochi", "The user's favourite dessert is mochi ice cream")),
        _g(("zh_measure", S, "用户养了一只柯基，叫豆豆", "用户家有条柯基犬，名字叫豆豆"),
           ("cross_lingual", S, "用户养了一只柯基，叫豆豆", "The user has a corgi named Doudou"),
           ("change", C, "用户的柯基叫豆豆", "用户的柯基叫团团"),
           ("compound_head", D, "用户养了一只柯基，叫豆豆", "用户爱吃热狗")),
        _g(("verb_number", S, "The user drinks iced tea every afternoon", "Each afternoon the user has a glass of iced tea"),
           ("mixed", S, "The user drinks iced tea every afternoon", "用户每天下午都要喝一杯 iced tea"),
           ("change", C, "The user drinks iced tea every afternoon", "The user has stopped drinking iced tea"),
           ("compound_head", D, "The user drinks iced tea every afternoon", "The user has a cup of hot herbal tea before bed")),
        _g(("zh_paraphrase", S, "用户早餐常吃花生酱吐司", "用户早上爱吃抹了花生酱的面包"),
           ("change", C, "用户早餐常吃花生酱吐司", "用户早餐改吃燕麦粥了，不再吃花生酱吐司"),
           ("compound_head", D, "用户早餐常吃花生酱吐司", "用户喜欢吃煮花生")),
        _g(("little_overlap", S, "The user is engaged to Priya", "Priya is the user's fiancée"),
           ("mixed", S, "The user is engaged to Priya", "用户和 Priya 订婚了"),
           ("change", C, "The user is engaged to Priya", "The user and Priya called off their engagement"),
           ("neighbour", D, "The user is engaged to Priya", "用户是在大学里认识 Priya 的")),
        _g(("zh_paraphrase", S, "用户目前单身", "用户现在没有对象"),
           ("change", C, "用户目前单身", "用户上个月开始谈恋爱了"),
           ("change", C, "The user is single", "用户已经结婚了"),
           ("neighbour", D, "用户目前单身", "用户一个人住")),
        _g(("person_shift", S, "I prefer TypeScript to plain JavaScript", "The user would rather write TypeScript than JavaScript"),
           ("mixed", S, "The user prefers TypeScript to JavaScript", "用户更喜欢用 TypeScript，而不是 JavaScript"),
           ("change", C, "The user prefers TypeScript to JavaScript", "比起 TypeScript，用户更喜欢写原生 JavaScript"),
           ("same_frame", D, "The user prefers TypeScript to JavaScript", "The user prefers PostgreSQL to MySQL")),
        _g(("verb_number", S, "The user has a yoga class every Tuesday evening", "On Tuesday nights the user goes to yoga"),
           ("cross_lingual", S, "The user has a yoga class every Tuesday evening", "用户每周二晚上上瑜伽课"),
           ("change", C, "The user has a yoga class every Tuesday evening", "The user's yoga class has moved to Thursday evenings"),
           ("same_frame", D, "The user has a yoga class every Tuesday evening", "用户每周六上午上 pottery 课")),
        _g(("zh_paraphrase", S, "用户每天下午四点去接孩子放学", "用户天天16点到学校接小孩"),
           ("change", C, "用户每天下午四点去接孩子放学", "用户每天下午五点去接孩子放学"),
           ("same_frame", D, "用户每天下午四点去接孩子放学", "用户每天早上八点送孩子上学")),
        _g(("label_definition", S, "用户是丁克", "用户夫妻俩决定不要孩子"),
           ("change", C, "用户是丁克", "用户和妻子打算明年要个孩子"),
           ("neighbour", D, "用户是丁克", "用户养了两只鹦鹉")),
        _g(("label_definition", S, "The user is an empty nester", "All of the user's children have grown up and moved out"),
           ("neighbour", D, "The user is an empty nester", "The user's youngest child is getting married in June")),
        _g(("label_definition", S, "用户是社恐", "用户很怕跟陌生人打交道"),
           ("cross_lingual", S, "用户是社恐", "The user gets anxious around people they don't know")),
        _g(("mixed", S, "The user's standup is at 9:30 every weekday", "用户每个工作日早上九点半开 standup"),
           ("change", C, "The user's standup is at 9:30 every weekday", "The user's standup is at 10:00 every weekday")),
    )
)  # fmt: skip
"""The unspent held-back part (in no other labelled file): scored once, at the end of the
session that receives it, with ``scripts/eval_dedupe_unseen.py --held-back``."""

FIRST_FOURTH_GROUP = FIRST_HELD_BACK_GROUP + len(HELD_BACK_GROUPS)
"""Group numbers of this part start after those of the third held-back part."""


def fourth_held_back() -> list[tuple[int, Pair]]:
    """(group, pair) of :data:`FOURTH_GROUPS`, numbered after the other held-back parts."""
    return [(FIRST_FOURTH_GROUP + i, p) for i, g in enumerate(FOURTH_GROUPS) for p in g]
