"""The ninth held-back part of the pair decision's unseen pairs (issue 28, step 1): written
2026-12-07, 22:13–22:16 UTC (``date -u`` on the session's machine), by a helper session that
had **not seen the decision's features** (it did not read ``app/``, ``docs/DEDUPE.md``,
``scripts/calibrate_dedupe.py``, ``scripts/eval_dedupe_unseen.py``,
``scripts/eval_pair_signals.py`` or the pair-decision tests under ``tests/services/``, and
ran neither the service nor any script of the decision on these pairs), and **never scored
until the end** of the session that receives it. The other labelled pair files were read
only for their format and so that no source fact or sentence here is one of theirs.

Each group starts from one source fact — a LoCoMo fact (the dev split of the LoCoMo
conversations: the question, its answer and the evidence turns, reworded; facts no other
labelled pair file uses) or an everyday agent-memory fact (a thyroid pill, a kindergarten
pick-up, an electric car, a master's thesis, migraines, a running watch, a new flat, a rented
parking space, a mother-in-law who helps with the baby, monthly gold buying, a rental car
abroad, an accountancy exam, annual leave, critical-illness insurance, no emojis in
replies, Pilates, a dog walker, cutting down on bubble tea, a son's maths tutoring, a
company choir) — and holds its duplicates (``same``: little shared wording, an idiom, a label
and its definition, another verb with the number written another way, a date written
another way, first person against third, English / Chinese, code-mixed, Chinese restated
with other words or a measure word, a brand against its translated name), changed values
(``contradicts``: another amount, date, place, dose, car, a plan called off or moved, "no
longer", "quit", a correction) and other facts about the same person (``distinct``, with
hard ones: the same frame with another compatible thing, ``same_frame``; a word inside a
compound, ``compound_head``; the same fact about another person, ``other_person``;
two occurrences of a recurring event, ``other_event_day``; the same amount or time in
another slot, ``same_value``; a qualifier that makes it another fact, ``qualifier``).
Written as users and agents say things, not toward any feature.
"""

# ruff: noqa: E501 - one pair per line reads best
from __future__ import annotations

from tests.dedupe_pairs import Pair
from tests.dedupe_pairs_held_back_8 import EIGHTH_GROUPS, FIRST_EIGHTH_GROUP
from tests.dedupe_pairs_unseen import C, D, S, _g

NINTH_GROUPS: tuple[tuple[Pair, ...], ...] = tuple(
    tuple(g)
    for g in (
        # conv-26: Melanie went to a show by the band "Summer Sounds" (August 2023); their pop song got everyone dancing.
        _g(("little_overlap", S, "Melanie went to a Summer Sounds show and the band got the whole crowd dancing", "Mel caught Summer Sounds live, and their poppy set had everyone on their feet dancing"),
           ("mixed", S, "Melanie went to a concert by the band Summer Sounds", "梅兰妮去看了 Summer Sounds 乐队的现场演出"),
           ("cancelled", C, "Melanie is going to see Summer Sounds this weekend", "Melanie's Summer Sounds tickets fell through, so she isn't going this weekend"),
           ("other_person", D, "Melanie went to a Summer Sounds show in August", "Caroline went to a Summer Sounds show in August")),
        # conv-26: Caroline had a picnic in a park with her friends the week before 6 July 2023.
        _g(("date_format", S, "Caroline had a picnic in the park with her friends in the week before 6 July 2023", "In the week before July 6th, 2023, Caroline and her friends picnicked in a park"),
           ("zh_paraphrase", S, "卡罗琳和朋友们上周去公园野餐了", "上个星期，卡罗琳约了几个朋友在公园里野餐"),
           ("change", C, "Caroline's picnic with her friends is on Saturday", "Caroline's picnic with her friends got moved to Sunday because of the rain"),
           ("other_event_day", D, "Caroline had a picnic in the park with her friends in late June 2023", "Caroline had a picnic in the park with her friends again in August 2023")),
        # conv-26: Melanie's dog Oliver once hid his bone in her slipper.
        _g(("little_overlap", S, "Melanie's dog Oliver once hid his bone in her slipper", "Oliver, Mel's dog, once stashed a bone inside one of her slippers"),
           ("cross_lingual", S, "Oliver once hid his bone in Melanie's slipper", "奥利弗有一次把骨头藏进了梅兰妮的拖鞋里"),
           ("same_frame", D, "奥利弗有一次把骨头藏进了梅兰妮的拖鞋里", "奥利弗有一次把骨头埋进了后院的花坛")),
        # conv-26: Caroline's library has lots of kids' books: classics, stories from different cultures, educational books.
        _g(("little_overlap", S, "Caroline keeps lots of children's books at home: classics, stories from other cultures and educational ones", "Caroline's shelves are full of kids' books — old classics, tales from around the world and books for learning"),
           ("cross_lingual", S, "Caroline has a big collection of children's books", "卡罗琳收藏了很多儿童读物"),
           ("change", C, "Caroline keeps a big collection of kids' books for her future children", "Caroline gave her whole collection of kids' books away to the youth center")),
        # conv-26: Blue is Caroline's favourite colour; it makes her feel relaxed (July 2023).
        _g(("person_shift", S, "Blue's my favourite colour, it makes me feel relaxed", "Caroline's favourite colour is blue because it relaxes her"),
           ("cross_lingual", S, "Caroline's favourite colour is blue", "卡罗琳最喜欢蓝色"),
           ("change", C, "卡罗琳最喜欢的颜色是蓝色", "卡罗琳说她现在最喜欢的颜色变成绿色了"),
           ("compound_head", D, "卡罗琳最喜欢蓝色", "卡罗琳很喜欢梅兰妮照片里那只蓝色花瓶")),
        # conv-26: Flowers were an important part of Melanie's wedding decor.
        _g(("little_overlap", S, "Flowers were a big part of Melanie's wedding decorations", "Melanie decorated her wedding with lots of flowers"),
           ("zh_paraphrase", S, "梅兰妮的婚礼布置里，鲜花是很重要的一部分", "梅兰妮结婚那天，现场用了很多鲜花来装饰"),
           ("same_frame", D, "Melanie's wedding was decorated with flowers", "Melanie's wedding was decorated with fairy lights")),
        # conv-30: Jon's dance studio had its official opening night on 20 June 2023.
        _g(("date_format", S, "Jon's dance studio officially opens on 20 June 2023", "The official opening night of Jon's studio is 6/20/2023"),
           ("cross_lingual", S, "Jon's dance studio has its grand opening on June 20", "乔恩的舞蹈工作室6月20日正式开业"),
           ("change", C, "乔恩的舞蹈工作室6月20日开业", "乔恩的舞蹈工作室开业推迟到7月初了"),
           ("same_value", D, "Jon's dance studio opens on 20 June", "Jon's mum's birthday is on 20 June")),
        # conv-30: Gina plans to work with fashion bloggers and influencers to get attention for her store (April 2023).
        _g(("little_overlap", S, "Gina plans to team up with fashion bloggers and influencers to promote her store", "To get her shop noticed, Gina wants to collaborate with fashion influencers and bloggers"),
           ("mixed", S, "Gina plans to work with fashion influencers to promote her store", "吉娜打算找时尚博主和 influencer 合作来推广她的店"),
           ("change", C, "Gina plans to work with fashion influencers to promote her store", "Gina dropped the influencer idea and is putting that budget into paid ads instead"),
           ("same_frame", D, "吉娜打算和时尚博主合作推广店铺", "吉娜打算在店里办一场时装快闪活动")),
        # conv-41: Maria went on a family vacation in Florida (she shared a sunset photo from it).
        _g(("cross_lingual", S, "Maria went on a vacation in Florida with her family", "玛丽亚和家人去佛罗里达度过假"),
           ("little_overlap", S, "Maria once vacationed in Florida with her family", "Maria and her family spent a holiday in Florida once"),
           ("change", C, "Maria's family vacation was in Florida", "Maria's family vacation was actually in California, not Florida"),
           ("same_frame", D, "Maria went on a family vacation to Florida", "Maria went on a family road trip to Oregon when she was younger"),
           ("other_person", D, "玛丽亚和家人去佛罗里达度过假", "约翰和家人去加州度过假")),
        # conv-41: John ran a community food drive (early 2023) after seeing unemployment hurt his neighbours.
        _g(("little_overlap", S, "John ran a community food drive because unemployment was hurting his neighbours", "Seeing people on his street out of work, John organised a food collection for the neighbourhood"),
           ("zh_paraphrase", S, "约翰看到邻居们失业日子难过，就办了一次社区食物募捐", "因为附近很多人丢了工作，约翰发起了社区募集食品的活动"),
           ("mixed", S, "John organised a community food drive", "John 办了一个 community food drive"),
           ("cancelled", C, "John is running a community food drive next weekend", "约翰下周末的社区食物募捐活动取消了"),
           ("compound_head", D, "John organised a community food drive", "John organised a community blood drive")),
        # conv-41: John worked with a local organisation that helps victims of domestic abuse, raising awareness and funds (August 2023).
        _g(("label_definition", S, "John worked with a local domestic abuse charity to raise money and awareness", "John teamed up with a local group supporting people hurt by violence at home, raising funds and awareness for them"),
           ("cross_lingual", S, "John worked with a local organisation helping domestic abuse victims", "约翰和当地一家帮助家暴受害者的机构合作过"),
           ("change", C, "John is working with a local domestic abuse charity", "约翰已经不和那家反家暴机构合作了"),
           ("other_person", D, "约翰和当地一家帮助家暴受害者的机构合作过", "玛丽亚和当地一家帮助家暴受害者的机构合作过")),
        # conv-41: John went on a mountaineering trip with some workmates the week before 12 June 2023.
        _g(("little_overlap", S, "John went mountaineering with some colleagues in early June 2023", "At the start of June 2023 John climbed a mountain with a few people from work"),
           ("cross_lingual", S, "John went on a mountaineering trip with his workmates", "约翰和同事们去登山了"),
           ("cancelled", C, "John is going mountaineering with his colleagues next weekend", "John's mountaineering trip with his colleagues is off because of the storm forecast"),
           ("same_frame", D, "约翰和同事们去登山了", "约翰和同事们去打保龄球了")),
        # conv-42: Nate's turtles eat a combination of vegetables, fruits and insects.
        _g(("little_overlap", S, "Nate's turtles eat a mix of vegetables, fruit and insects", "Nate feeds his turtles veggies, fruit and bugs — a varied diet"),
           ("cross_lingual", S, "Nate's turtles eat vegetables, fruit and insects", "内特的乌龟吃蔬菜、水果和昆虫"),
           ("change", C, "内特的乌龟吃蔬菜、水果和虫子", "听了兽医的建议，内特不再给乌龟喂水果了，只喂蔬菜和虫子")),
        # conv-42: Another movie script Joanna contributed to was shown on the big screen for the first time on Sunday 23 October 2022.
        _g(("date_format", S, "A film script Joanna worked on was shown on the big screen for the first time on Sunday 23 October 2022", "On 10/23/2022 a movie Joanna helped write had its first screening in cinemas"),
           ("cross_lingual", S, "Another movie Joanna helped write was shown on the big screen for the first time", "乔安娜参与写的又一部电影剧本第一次在大银幕上放映了"),
           ("change", C, "乔安娜参与编剧的电影这周日首映", "乔安娜参与编剧的那部电影首映推迟到十二月了"),
           ("other_event_day", D, "A script Joanna contributed to was screened for the first time in October 2022", "An earlier script Joanna contributed to was first screened in June 2022")),
        # conv-42: Joanna found out (March 2022) that she is allergic to cockroaches as well.
        _g(("cross_lingual", S, "Joanna recently found out she's allergic to cockroaches", "乔安娜最近发现自己对蟑螂过敏"),
           ("change", C, "乔安娜对蟑螂过敏", "乔安娜复查后发现其实对蟑螂不过敏，是对尘螨过敏"),
           ("same_frame", D, "Joanna is allergic to cockroaches", "Joanna is allergic to birch pollen"),
           ("other_person", D, "Joanna is allergic to cockroaches", "Joanna's brother is allergic to cockroaches")),
        # conv-43: Tim has a map of Middle-earth from The Lord of the Rings (January 2024).
        _g(("label_definition", S, "Tim has a map of Middle-earth", "Tim owns a map of the world The Lord of the Rings is set in"),
           ("cross_lingual", S, "Tim has a map of Middle-earth from The Lord of the Rings", "蒂姆有一张《指环王》里的中土世界地图"),
           ("change", C, "Tim has a map of Middle-earth on his wall", "蒂姆把墙上那张中土世界地图送给约翰了"),
           ("same_frame", D, "蒂姆有一张中土世界的地图", "蒂姆有一张维斯特洛大陆的地图")),
        # conv-43: Tim hopes to attend a book conference next month (September 2023).
        _g(("label_definition", S, "Tim hopes to go to a book conference next month", "Tim is planning to attend a gathering of authors, publishers and readers next month"),
           ("cross_lingual", S, "Tim wants to attend a book conference in September", "蒂姆九月想去参加一个图书大会"),
           ("cancelled", C, "蒂姆九月要去参加图书大会", "蒂姆九月的图书大会不去了，要准备考试"),
           ("other_event_day", D, "Tim is attending a book conference in September 2023", "Tim went to a book conference in September 2022")),
        # conv-43: John and his wife had their first dance at a cozy restaurant, with music and candlelight.
        _g(("little_overlap", S, "John and his wife had their first dance at a cosy restaurant", "The newlyweds, John and his wife, shared their first dance in a snug little restaurant"),
           ("zh_paraphrase", S, "约翰和妻子的第一支舞是在一家温馨的餐厅里跳的", "约翰夫妇在一间很温馨的小餐馆跳了他们的第一支舞"),
           ("change", C, "John and his wife had their first dance at a cosy restaurant", "John says their first dance was actually on the beach at sunset, not at the restaurant"),
           ("same_frame", D, "约翰和妻子在一家温馨的餐厅跳了第一支舞", "约翰和妻子在一家温馨的餐厅订的婚")),
        # conv-43: Tim got stuck on a plot twist in his writing the week before 6 November 2023, then got the ideas flowing again.
        _g(("idiom", S, "Tim got stuck on a plot twist in his story last week", "Last week Tim hit a wall with a twist in his story"),
           ("cross_lingual", S, "Tim got stuck on a plot twist while writing", "蒂姆写作时卡在了一个情节反转上"),
           ("change", C, "蒂姆还卡在那个情节反转上", "蒂姆已经想通了那个情节反转，现在写得很顺"),
           ("same_frame", D, "Tim got stuck on a plot twist in his story", "蒂姆卡在了故事的结尾上")),
        # conv-43: John finished rereading "The Alchemist" (November 2023); it made him think about following dreams.
        _g(("little_overlap", S, "John just finished rereading The Alchemist and found it inspiring", "John went through Paulo Coelho's The Alchemist a second time and came away motivated"),
           ("cross_lingual", S, "John reread The Alchemist", "约翰重读了《牧羊少年奇幻之旅》"),
           ("other_person", D, "John reread The Alchemist", "Tim reread The Alchemist"),
           ("same_frame", D, "约翰重读了《牧羊少年奇幻之旅》", "约翰重读了《沙丘》")),
        # conv-43: John holds the yoga pose for 30-60 seconds (December 2023).
        _g(("number_form", S, "John usually holds that yoga pose for 30-60 seconds", "John typically stays in the pose for between half a minute and a minute"),
           ("cross_lingual", S, "John holds the yoga pose for 30 to 60 seconds", "约翰这个瑜伽动作一般保持30到60秒"),
           ("change", C, "约翰这个瑜伽动作一般保持30到60秒", "约翰现在这个瑜伽动作能保持两分钟了"),
           ("same_value", D, "John holds the yoga pose for 30-60 seconds", "John rests 30-60 seconds between sets")),
        # conv-43: Tim visited a travel agency to see what his next dream trip would require (December 2023).
        _g(("little_overlap", S, "Tim went to a travel agency to find out what his next dream trip would require", "Tim stopped by a travel agent's to ask what he'd need for the dream trip he's planning"),
           ("mixed", S, "Tim visited a travel agency about his dream trip", "Tim 去了趟 travel agency，问他的梦想之旅需要准备什么"),
           ("same_frame", D, "蒂姆去旅行社咨询了下一次旅行的要求", "蒂姆去大使馆咨询了签证的要求")),
        # ---- Everyday agent-memory facts.
        _g(("verb_number", S, "The user takes 50 mcg of levothyroxine every morning before breakfast", "Each morning, on an empty stomach, the user has a fifty-microgram levothyroxine tablet"),
           ("zh_paraphrase", S, "用户有甲减，每天早上空腹吃一片优甲乐", "用户甲状腺功能减退，每天晨起空腹服用一片优甲乐"),
           ("cross_lingual", S, "用户每天早上空腹吃50微克优甲乐", "The user takes 50 micrograms of Euthyrox every morning on an empty stomach"),
           ("change", C, "The user takes 50 mcg of levothyroxine daily", "The user's endocrinologist has raised their levothyroxine to 75 mcg"),
           ("same_value", D, "用户每天吃50微克优甲乐", "用户每天吃50毫克的维生素C")),
        _g(("zh_paraphrase", S, "用户的女儿朵朵在上幼儿园，每天下午四点半放学", "朵朵是用户的闺女，上幼儿园，下午4:30放学"),
           ("cross_lingual", S, "用户每天下午四点半去幼儿园接女儿", "The user picks their daughter up from kindergarten at 4:30pm every day"),
           ("change", C, "用户下午四点半接女儿放学", "幼儿园改了作息，用户现在下午五点才去接女儿"),
           ("same_value", D, "用户四点半去幼儿园接女儿", "用户每天下午四点半喝一杯咖啡")),
        _g(("person_shift", S, "I drive a BYD Seal and charge it at home overnight", "The user drives a BYD Seal, charging it at home overnight"),
           ("cross_lingual", S, "The user drives a BYD Seal", "用户开的是一台比亚迪海豹"),
           ("change", C, "用户开比亚迪海豹", "用户把海豹卖了，换了一辆小米 SU7"),
           ("other_person", D, "The user drives a BYD Seal", "The user's wife drives a BYD Dolphin"),
           ("compound_head", D, "用户开比亚迪海豹", "用户买了比亚迪的股票")),
        _g(("date_format", S, "The user's master's thesis is due on 30 April", "The user has to hand in their MA thesis by 30/4"),
           ("cross_lingual", S, "The user's master's thesis is due on April 30", "用户的硕士论文4月30日截止"),
           ("change", C, "用户的硕士论文4月30日交", "学院把硕士论文的截止日期延到了5月20日"),
           ("qualifier", D, "The user's thesis is due on 30 April", "The user's thesis draft is due to their supervisor on 31 March"),
           ("other_person", D, "用户的硕士论文4月30日截止", "用户室友的硕士论文4月30日截止")),
        _g(("verb_number", S, "The user gets migraines about twice a month", "Two or so times a month the user is hit by a migraine"),
           ("cross_lingual", S, "The user takes sumatriptan as soon as a migraine starts", "用户偏头痛一发作就吃舒马普坦"),
           ("change", C, "The user gets migraines about twice a month", "用户打了预防针以后，偏头痛大概两个月才犯一次"),
           ("other_person", D, "用户有偏头痛", "用户的妈妈有偏头痛")),
        _g(("mixed", S, "The user wears a Garmin Forerunner 265", "用户戴的是 Garmin Forerunner 265 手表"),
           ("change", C, "The user wears a Garmin Forerunner 265", "The user's Garmin died and they've switched to an Apple Watch Ultra"),
           ("same_frame", D, "用户跑步戴佳明 Forerunner 265 手表", "用户骑车用佳明 Edge 码表")),
        _g(("zh_paraphrase", S, "用户在浦东买了套房，五月份搬进去", "用户浦东的新房子，打算5月入住"),
           ("cross_lingual", S, "用户在浦东买了一套两居室", "The user bought a two-bedroom flat in Pudong"),
           ("change", C, "用户五月搬进浦东的新房", "用户浦东新房的装修没弄完，搬家推迟到八月了"),
           ("other_person", D, "用户在浦东买了房", "用户的弟弟在浦东买了房")),
        _g(("zh_measure", S, "用户在小区地库租了一个车位，每月600元", "用户每个月花六百块租小区地下的一个停车位"),
           ("cross_lingual", S, "用户每月600元租了一个地下车位", "The user rents an underground parking space for 600 yuan a month"),
           ("change", C, "用户租车位每月600元", "物业把用户的车位租金涨到每月800了"),
           ("same_value", D, "用户的车位每月600元", "用户每月给女儿交600元的伙食费")),
        _g(("zh_paraphrase", S, "用户的婆婆住在他们家，帮着带孩子", "孩子主要是用户的婆婆在家帮忙带，她跟他们一起住"),
           ("cross_lingual", S, "用户的婆婆跟他们住在一起", "The user's mother-in-law lives with them"),
           ("change", C, "用户的婆婆跟他们一起住，帮忙带娃", "用户的婆婆上个月回老家了，现在孩子送托班"),
           ("other_person", D, "用户的婆婆在帮忙带孩子", "用户的妈妈周末也会来帮忙带孩子")),
        _g(("zh_measure", S, "用户每个月在银行定投2克黄金", "用户每月固定在银行买两克金子"),
           ("cross_lingual", S, "用户每月定投两克黄金", "The user buys 2 grams of gold through their bank every month"),
           ("change", C, "用户每个月买2克黄金", "金价太高，用户把每月买黄金停了"),
           ("same_value", D, "用户每月买2克黄金", "用户给女儿打了一个2克的金手镯")),
        _g(("date_format", S, "The user has a rental car booked in Iceland from 4 to 11 September", "The user's Iceland hire car is reserved for 4–11 Sept"),
           ("other_person", D, "The user booked a rental car in Iceland for September", "The user's parents booked a rental car in Iceland for September"),
           ("change", C, "The user's Iceland car rental runs from 4 to 11 September", "The user cancelled the Iceland rental car and booked a bus tour instead"),
           ("same_frame", D, "The user booked a rental car in Iceland for September", "The user booked a hotel in Reykjavik for September")),
        _g(("zh_paraphrase", S, "用户在备考注会，今年八月考会计和税法", "用户今年准备考注册会计师，八月份报了会计、税法两科"),
           ("mixed", S, "用户今年在考 CPA，报了会计和税法", "The user is sitting the CPA accounting and tax law papers this year"),
           ("change", C, "用户八月考注会的会计和税法", "用户今年注会只考会计了，税法放到明年"),
           ("qualifier", D, "用户通过了注会会计科目", "用户通过了注会会计的模拟考试"),
           ("other_person", D, "用户在备考注会", "用户的老公在备考注会")),
        _g(("verb_number", S, "The user has 12 days of annual leave left this year", "The user still has a dozen days of holiday to use this year"),
           ("cross_lingual", S, "用户今年还剩12天年假", "The user has twelve days of annual leave left this year"),
           ("change", C, "用户今年还剩12天年假", "用户休完圣诞假，今年只剩两天年假了"),
           ("compound_head", D, "The user has 12 days of annual leave left", "The user has 12 days of sick leave left")),
        _g(("zh_paraphrase", S, "用户在平安买了一份重疾险，每年保费6800元", "用户有份平安的重大疾病保险，一年交六千八"),
           ("cross_lingual", S, "用户买了平安的重疾险", "The user has critical illness insurance with Ping An"),
           ("change", C, "用户的重疾险每年交6800元", "用户把平安的重疾险退保了"),
           ("same_frame", D, "用户买了平安的重疾险", "用户买了平安的意外险")),
        _g(("cross_lingual", S, "The user doesn't want any emojis in replies", "用户不希望回复里出现表情符号"),
           ("zh_paraphrase", S, "用户不喜欢回复里带表情符号", "给用户回消息的时候别加表情"),
           ("change", C, "用户不希望回复里有表情符号", "The user says emojis in replies are fine now"),
           ("same_frame", D, "用户不希望回复里有表情符号", "用户不希望回复里有英文缩写")),
        _g(("cross_lingual", S, "The user does Pilates every Tuesday and Thursday evening", "用户每周二、周四晚上上普拉提"),
           ("change", C, "The user does Pilates on Tuesday and Thursday evenings", "The user has moved Pilates to Saturday mornings only"),
           ("other_event_day", D, "The user has Pilates on Tuesday 8 December at 7pm", "The user has Pilates on Thursday 10 December at 7pm"),
           ("other_person", D, "用户每周二、四晚上上普拉提", "用户的同事每周二、四晚上上普拉提")),
        _g(("mixed", S, "The user's dog walker comes at noon on weekdays", "用户请了个 dog walker，工作日中午来遛狗"),
           ("cancelled", C, "The user's dog walker comes at noon on weekdays", "The user stopped the dog walker now that they work from home"),
           ("same_value", D, "The user's dog walker comes at noon on weekdays", "The user's team stand-up is at noon on weekdays")),
        _g(("zh_paraphrase", S, "用户在控糖，一周最多喝一杯奶茶", "用户为了少吃糖，奶茶一个星期顶多喝一杯"),
           ("cross_lingual", S, "用户一周最多喝一杯奶茶", "The user limits themselves to one bubble tea a week"),
           ("change", C, "用户一周最多喝一杯奶茶", "用户彻底戒奶茶了"),
           ("same_frame", D, "用户一周最多喝一杯奶茶", "用户一周最多吃一次炸鸡")),
        _g(("zh_measure", S, "用户的儿子每周六下午上数学补习，一小时200块", "用户家儿子周六下午补数学，每个钟头两百元"),
           ("cross_lingual", S, "用户儿子周六下午补习数学", "The user's son has maths tutoring on Saturday afternoons"),
           ("change", C, "用户儿子周六下午上数学补习", "用户儿子的数学补习改到周日上午了"),
           ("other_event_day", D, "The user's son had maths tutoring on Saturday 14 November", "The user's son had maths tutoring on Saturday 21 November"),
           ("same_frame", D, "用户的儿子周六下午补数学", "用户的儿子周六上午学游泳")),
        _g(("little_overlap", S, "The user sings in their company choir, which rehearses on Wednesdays", "Wednesday is choir practice for the user — they're in the office choir"),
           ("cross_lingual", S, "The user sings in their company choir", "用户参加了公司的合唱团"),
           ("change", C, "The user sings in the company choir", "The user quit the company choir because of all the overtime"),
           ("compound_head", D, "The user sings in their company choir", "The user's company sponsors a children's choir")),
    )
)  # fmt: skip
"""The unspent ninth held-back part (in no other labelled file): scored once, at the end of
the session that receives it."""

FIRST_NINTH_GROUP = FIRST_EIGHTH_GROUP + len(EIGHTH_GROUPS)
"""Group numbers of this part start after those of the eighth held-back part."""


def ninth_held_back() -> list[tuple[int, Pair]]:
    """(group, pair) of :data:`NINTH_GROUPS`, numbered after the other labelled parts."""
    return [(FIRST_NINTH_GROUP + i, p) for i, g in enumerate(NINTH_GROUPS) for p in g]
