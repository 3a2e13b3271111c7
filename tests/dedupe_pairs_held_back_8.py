"""The eighth held-back part of the pair decision's unseen pairs (issue 28, step 1): written
2026-12-07, 19:04–19:09 UTC (``date -u`` on the session's machine), by a helper session that
had **not seen the decision's features** (it did not read ``app/``, ``docs/DEDUPE.md``,
``scripts/calibrate_dedupe.py``, ``scripts/eval_dedupe_unseen.py``,
``scripts/eval_pair_signals.py`` or the pair-decision tests under ``tests/services/memory/``,
and ran neither the service nor any script of the decision on these pairs), and **never
scored until the end** of the session that receives it. The other labelled pair files were
read only for their format and so that no source fact here is one of theirs.

Each group starts from one source fact — a LoCoMo fact (the dev split of the LoCoMo
conversations: the question, its answer and the evidence turns, reworded; facts no other
labelled pair file uses) or an everyday agent-memory fact (a blood-pressure pill, a pregnancy,
home broadband, a 401(k), a weekly one-on-one, a business trip, a sick cat, a work laptop, a
music subscription, a liver check-up, a promotion, a grandmother in care, a preferred name, a
driving test, an index fund, Spring Festival at home, a rabbit, braces, quiet hours) — and
holds its duplicates (``same``: little shared wording, an idiom, a label and its definition,
another verb with the number written another way, a date written another way, first person
against third, English / Chinese, code-mixed, Chinese restated with other words or a measure
word), changed values (``contradicts``: another amount, year, place, dose, provider, a plan
called off or moved, "no longer") and other facts about the same person (``distinct``, with
hard ones: the same frame with another compatible thing, ``same_frame``; a word inside a
compound, ``compound_head``; the same fact about another person, ``other_person``; two
occurrences of a recurring event, ``other_event_day``; the same amount or time in another slot,
``same_value``). Written as users and agents say things, not toward any feature.
"""

# ruff: noqa: E501 - one pair per line reads best
from __future__ import annotations

from tests.dedupe_pairs import Pair
from tests.dedupe_pairs_dev_7 import DEV7_GROUPS, FIRST_DEV7_GROUP
from tests.dedupe_pairs_unseen import C, D, S, _g

EIGHTH_GROUPS: tuple[tuple[Pair, ...], ...] = tuple(
    tuple(g)
    for g in (
        # conv-26: Melanie and her husband had been married five years in June 2023.
        _g(("person_shift", S, "My husband and I have been married five years now", "Melanie has been married to her husband for five years"),
           ("change", C, "梅兰妮和丈夫结婚五年了", "梅兰妮和丈夫刚过了结婚十周年纪念日"),
           ("other_person", D, "梅兰妮和丈夫结婚五年了", "梅兰妮的哥哥和嫂子结婚五年了")),
        # conv-26: Melanie's son got into an accident on the family road trip the weekend before 20 October 2023; he was okay.
        _g(("little_overlap", S, "Melanie's son was in an accident on the family road trip in October 2023, but he was okay", "On their October 2023 road trip, Mel's boy had a crash; luckily he came out of it fine"),
           ("cross_lingual", S, "Melanie's son got into an accident on their road trip", "梅兰妮的儿子在家庭自驾游途中出了事故"),
           ("change", C, "梅兰妮的儿子在自驾游途中出了事故，好在人没事", "梅兰妮的儿子在自驾游那次事故里受了重伤，现在还在住院"),
           ("same_frame", D, "梅兰妮一家十月份去自驾游了", "梅兰妮一家六月份去露营了")),
        # conv-26: Melanie runs to de-stress and clear her mind (July 2023, new running shoes).
        _g(("little_overlap", S, "Melanie runs to de-stress and clear her head", "Running is how Melanie unwinds and gets her thoughts straight"),
           ("zh_paraphrase", S, "梅兰妮跑步是为了减压、让脑子清静一下", "梅兰妮靠跑步来放松心情、理清思绪"),
           ("change", C, "Melanie goes running to de-stress", "Melanie doesn't run anymore"),
           ("same_frame", D, "梅兰妮买了一双新跑鞋", "梅兰妮买了一双新的徒步鞋")),
        # conv-26: Caroline went to a transgender poetry reading (October 2023).
        _g(("little_overlap", S, "Caroline went to a transgender poetry reading", "Caroline was at an event where trans people read out poems about their own lives"),
           ("cross_lingual", S, "Caroline went to a trans poetry reading", "卡罗琳去参加了一场跨性别者的诗歌朗诵会"),
           ("change", C, "Caroline went to the transgender poetry reading last week", "Caroline didn't make it to the transgender poetry reading after all"),
           ("same_frame", D, "卡罗琳去参加了一场跨性别者的诗歌朗诵会", "卡罗琳去参加了一个跨性别心理咨询工作坊")),
        # conv-41: John's main focus in local politics is improving education and infrastructure.
        _g(("little_overlap", S, "John's main focus in local politics is improving education and infrastructure", "Better schools and better public infrastructure for the community are what John cares most about in politics"),
           ("cross_lingual", S, "John's priorities in local politics are education and infrastructure", "约翰在地方政治上最关注的是教育和基础设施"),
           ("change", C, "约翰从政主要关注教育和基础设施", "约翰现在把重心转到了治安上，不再主抓教育和基础设施"),
           ("neighbour", D, "约翰从政最关注教育和基础设施", "约翰打算再次竞选公职")),
        # conv-41: John and his family made pizza together (December 2022).
        _g(("little_overlap", S, "John and his family made pizza together", "John cooked homemade pizzas with his family"),
           ("cross_lingual", S, "John made pizza with his family", "约翰和家人一起做了披萨"),
           ("change", C, "John and his family made pizza together last weekend", "John's family ended up ordering takeaway last weekend instead of making pizza"),
           ("compound_head", D, "约翰和家人一起做了披萨", "约翰给家里买了一台披萨烤炉")),
        # conv-41: In 2022 John helped renovate a rundown community centre back home.
        _g(("verb_number", S, "In 2022 John helped renovate a run-down community centre in his hometown", "John pitched in on fixing up his hometown's shabby community center back in '22"),
           ("zh_paraphrase", S, "约翰2022年帮家乡翻修了一座破旧的社区中心", "2022年，约翰参与了老家那座老旧社区活动中心的翻新"),
           ("change", C, "John helped renovate his hometown community centre in 2022", "John helped renovate his hometown community centre back in 2019"),
           ("same_frame", D, "约翰帮家乡翻修了社区中心", "约翰帮家乡的一所学校做了翻修")),
        # conv-41: Maria went hiking with her church friends the weekend before 22 July 2023.
        _g(("date_format", S, "Maria went hiking with her church friends on the weekend of 15 July 2023", "On the weekend of 7/15/2023 Maria did a hike with her friends from church"),
           ("cross_lingual", S, "Maria went hiking with her church friends", "玛丽亚和教会的朋友们去徒步了"),
           ("change", C, "玛丽亚7月中旬和教会的朋友去徒步了", "玛丽亚和教会朋友7月中旬的徒步因为下雨取消了"),
           ("other_event_day", D, "Maria went hiking with her church friends in mid-July 2023", "Maria went hiking with her church friends again in September 2023")),
        # conv-43: John and his wife road-tripped along the European coastline in November 2023.
        _g(("cross_lingual", S, "John and his wife went on a road trip along the European coastline", "约翰和妻子在欧洲沿海自驾游了一趟"),
           ("change", C, "John and his wife are going on their European vacation in November", "John and his wife have pushed their European vacation back to next spring"),
           ("other_person", D, "约翰和妻子在欧洲沿海自驾游了一趟", "蒂姆和旅行俱乐部的朋友在欧洲沿海自驾游了一趟")),
        # conv-43: John got a deal with a renowned outdoor gear company (December 2023); the photoshoot was in a forest.
        _g(("little_overlap", S, "John signed a deal with a well-known outdoor gear company", "A big outdoor equipment brand has taken John on as a sponsor"),
           ("mixed", S, "John got a deal with an outdoor gear company", "约翰签了一家户外装备公司的 deal"),
           ("change", C, "约翰户外装备代言的广告是在森林里拍的", "约翰户外装备代言的广告其实是在摄影棚里拍的，不是在户外"),
           ("neighbour", D, "John got a deal with an outdoor gear company", "John bought some new outdoor gear for a hiking trip")),
        # conv-43: John got an endorsement with a popular beverage company (January 2024).
        _g(("label_definition", S, "John has an endorsement deal with a popular beverage company", "A well-known drinks company is paying John to promote its products"),
           ("zh_paraphrase", S, "约翰拿到了一家知名饮料公司的代言", "约翰成了一个大饮料品牌的代言人"),
           ("change", C, "John has an endorsement with a popular beverage company", "The beverage company has dropped its endorsement deal with John"),
           ("other_person", D, "约翰拿到了一家知名饮料公司的代言", "约翰的队友拿到了一家知名饮料公司的代言")),
        # conv-43: Tim's prized possession is a basketball signed by his favourite player.
        _g(("little_overlap", S, "Tim's most treasured possession is a basketball signed by his favourite player", "The thing Tim values most is a ball autographed by the player he admires most"),
           ("cross_lingual", S, "Tim's prized possession is a signed basketball", "蒂姆最珍视的东西是一个签名篮球"),
           ("change", C, "Tim treasures the basketball signed by his favourite player", "Tim sold the signed basketball he used to treasure"),
           ("same_frame", D, "蒂姆有一个他最喜欢的球员签名的篮球", "蒂姆有一本 J.K. 罗琳签名的书")),
        # conv-43: John started doing seminars on sports and marketing (December 2023).
        _g(("little_overlap", S, "John has started giving seminars on sports and marketing", "John now runs sessions helping people with sport and with marketing"),
           ("zh_paraphrase", S, "约翰开始办体育和营销方面的讲座了", "约翰最近开了一些研讨会，教大家体育和市场营销"),
           ("change", C, "约翰在办体育和营销讲座", "约翰已经不办讲座了，要专心打比赛"),
           ("same_frame", D, "John runs seminars on sports and marketing", "John runs a basketball camp for kids")),
        # conv-43: John's team won a trophy at the end of the season (October 2023).
        _g(("idiom", S, "John's team won a trophy at the end of the season", "John's team brought home the silverware at the end of the season"),
           ("cross_lingual", S, "John's team won a trophy at the end of the season", "约翰的球队赛季末拿了一座奖杯"),
           ("change", C, "约翰的球队赛季末拿了奖杯", "约翰的球队赛季末在决赛输了，没拿到奖杯"),
           ("other_event_day", D, "John's team won a trophy at the end of the 2023 season", "John's high school team won a trophy in his senior year")),
        # conv-30: Jon's dance group performs at a nearby festival in February 2023.
        _g(("little_overlap", S, "Jon's dance group is performing at a nearby festival in February 2023", "In Feb 2023, Jon and his dancers will be on stage at a local festival"),
           ("zh_paraphrase", S, "乔恩的舞蹈团2023年2月要在附近的一个节庆活动上演出", "今年二月，乔恩带的舞者们会去附近的节日活动登台表演"),
           ("change", C, "乔恩的舞团二月要在节庆活动上演出", "乔恩舞团在节庆活动上的演出改到四月了"),
           ("same_frame", D, "Jon's group is performing at a festival in February 2023", "Jon is hosting a dance competition in May 2023")),
        # conv-30: Gina teamed up with a local artist for designs for her online store (February 2023).
        _g(("little_overlap", S, "Gina teamed up with a local artist on designs for her online store", "Gina is working with an artist from her area on new designs for her web shop"),
           ("mixed", S, "Gina teamed up with a local artist for some designs", "Gina 和一位本地艺术家合作搞了一些设计"),
           ("change", C, "吉娜在和一位本地艺术家合作设计", "吉娜和那位本地艺术家已经不合作了"),
           ("same_frame", D, "吉娜和一位本地艺术家合作做设计", "吉娜和一家本地面料厂谈了合作")),
        # conv-42: Joanna's laptop crashed the week before 14 September 2022 and she lost all her work.
        _g(("little_overlap", S, "Joanna's laptop crashed and she lost all her work", "Joanna's computer died and everything she had written was gone"),
           ("zh_paraphrase", S, "乔安娜的笔记本电脑崩了，写的东西全没了", "乔安娜电脑死机，所有稿子都丢了"),
           ("change", C, "Joanna lost all her work when her laptop crashed", "乔安娜电脑崩溃后，稿子其实全都找回来了"),
           ("compound_head", D, "乔安娜的笔记本电脑坏了", "乔安娜在旧笔记本里翻到了自己早期写的东西")),
        # conv-42: Joanna had an audition for a writing gig on 23 March 2022.
        _g(("date_format", S, "Joanna had an audition for a writing gig on 23 March 2022", "Joanna auditioned for a writing job on 3/23/22"),
           ("cross_lingual", S, "Joanna had an audition for a writing gig", "乔安娜去参加了一份写作工作的选拔"),
           ("change", C, "Joanna's audition for the writing gig is on 23 March", "Joanna's audition for the writing gig got pushed to April"),
           ("other_event_day", D, "乔安娜2022年3月参加了一次写作工作的选拔", "乔安娜2022年6月又参加了一次写作工作的选拔")),
        # conv-42: Nate taught vegan ice cream recipes on his own cooking show (September 2022).
        _g(("cross_lingual", S, "Nate hosted a cooking show about vegan ice cream", "内特主持了一档教做纯素冰淇淋的烹饪节目"),
           ("change", C, "Nate hosts his own cooking show", "Nate's cooking show was cancelled after the first episode"),
           ("same_frame", D, "内特在自己的烹饪节目上教做纯素冰淇淋", "内特在自己的烹饪节目上教做无乳巧克力慕斯")),
        # conv-42: Joanna is writing a suspenseful thriller set in a small Midwestern town (November 2022).
        _g(("cross_lingual", S, "Joanna's new project is a thriller set in a small Midwestern town", "乔安娜在写一部以美国中西部小镇为背景的惊悚故事"),
           ("change", C, "Joanna's thriller is set in a small Midwestern town", "Joanna has moved her thriller's setting to a fishing village in Maine"),
           ("same_frame", D, "乔安娜在写一部中西部小镇的惊悚剧本", "乔安娜在写一部关于失去和身份认同的剧本")),
        # conv-42: Nate got his first two turtles in 2019.
        _g(("verb_number", S, "Nate got his first two turtles in 2019", "Nate's original pair of turtles came home with him back in '19"),
           ("zh_measure", S, "内特2019年养了头两只乌龟", "内特最早那两只龟是2019年领回家的"),
           ("change", C, "Nate got his first two turtles in 2019", "Nate got his first two turtles in 2021"),
           ("same_value", D, "Nate got his first two turtles in 2019", "Nate moved into his current apartment in 2019")),
        # ---- Everyday agent-memory facts.
        _g(("verb_number", S, "The user takes 5 mg of amlodipine every morning for their blood pressure", "Each morning the user has a five-milligram amlodipine tablet for hypertension"),
           ("cross_lingual", S, "The user takes amlodipine 5 mg every morning", "用户每天早上吃5毫克氨氯地平"),
           ("change", C, "The user takes 5 mg of amlodipine each morning", "The user's doctor has upped their amlodipine to 10 mg"),
           ("same_frame", D, "The user takes 5 mg of amlodipine every morning", "The user takes 20 mg of atorvastatin every night")),
        _g(("zh_paraphrase", S, "用户的老婆怀孕了，预产期是明年四月", "用户媳妇有喜了，预计明年4月生"),
           ("cross_lingual", S, "用户的老婆怀孕了，预产期是明年四月", "The user's wife is pregnant and due next April"),
           ("change", C, "用户老婆的预产期是明年四月", "医生说用户老婆的预产期提前到明年三月了"),
           ("other_person", D, "用户的老婆怀孕了", "用户的妹妹怀孕了")),
        _g(("zh_paraphrase", S, "用户家的宽带是电信的500兆", "用户家里装的网是中国电信的，五百兆"),
           ("change", C, "用户家宽带是电信500兆", "用户家宽带已经换成联通的千兆了"),
           ("same_frame", D, "用户家的宽带是电信的", "用户的手机号是电信的")),
        _g(("verb_number", S, "The user puts 6% of each paycheck into their 401(k)", "Six percent of the user's salary goes into their 401k every pay period"),
           ("mixed", S, "The user puts 6% of their pay into their 401(k)", "用户每次发工资都把6%存进 401(k)"),
           ("change", C, "The user contributes 6% of their pay to their 401(k)", "The user raised their 401(k) contribution to 10%"),
           ("same_value", D, "The user contributes 6% of their salary to their 401(k)", "The user's employer matches 401(k) contributions up to 6% of salary")),
        _g(("little_overlap", S, "The user has a one-on-one with their manager every Thursday at 4pm", "Thursdays at four the user meets their boss for a weekly 1:1"),
           ("change", C, "The user's weekly 1:1 with their manager is on Thursdays at 4pm", "The user's weekly 1:1 with their manager has moved to Monday mornings"),
           ("other_event_day", D, "The user has their 1:1 with their manager on Thursday 10 December at 4pm", "The user has their 1:1 with their manager on Thursday 17 December at 4pm"),
           ("same_value", D, "用户每周四下午四点和经理一对一", "用户的儿子每周四下午四点上游泳课")),
        _g(("cross_lingual", S, "The user is going to Xi'an on a business trip next Wednesday", "用户下周三去西安出差"),
           ("mixed", S, "用户下周三要去西安出差", "用户下周三去西安，是个 business trip"),
           ("change", C, "用户下周三去西安出差", "用户下周三的西安出差取消了"),
           ("same_frame", D, "用户下周三去西安出差", "用户下个月去西安参加展会")),
        _g(("zh_measure", S, "用户家的猫得了甲亢，每天吃两次药", "用户的猫甲状腺功能亢进，每天早晚各喂一次药"),
           ("cross_lingual", S, "用户的猫有甲亢，每天要吃两次药", "The user's cat has hyperthyroidism and takes medication twice a day"),
           ("change", C, "用户的猫每天吃两次甲亢药", "用户的猫做了碘131治疗，甲亢好了，不用再吃药了"),
           ("other_person", D, "用户的猫有甲亢", "用户的妈妈有甲亢")),
        _g(("little_overlap", S, "The user's work laptop is a ThinkPad X1 Carbon", "At the office the user works on a Lenovo X1 Carbon"),
           ("cross_lingual", S, "The user's work laptop is a ThinkPad X1 Carbon", "用户上班用的电脑是 ThinkPad X1 Carbon"),
           ("change", C, "The user's work laptop is a ThinkPad X1 Carbon", "The user's employer swapped their ThinkPad for a MacBook Pro"),
           ("same_frame", D, "The user's work laptop is a ThinkPad X1 Carbon", "The user's personal laptop is a MacBook Air")),
        _g(("little_overlap", S, "The user shares a Spotify Duo plan with their partner", "The user and their partner are on one Spotify Duo subscription"),
           ("mixed", S, "The user shares a Spotify Duo plan with their partner", "用户和对象一起用 Spotify Duo 套餐"),
           ("change", C, "The user is on Spotify Duo with their partner", "用户把 Spotify 退订了，改用 Apple Music"),
           ("compound_head", D, "The user shares a Spotify Duo plan with their partner", "The user and their partner do Duolingo together")),
        _g(("zh_paraphrase", S, "用户有轻度脂肪肝，医生让他少喝酒", "体检查出用户有点脂肪肝，医生叮嘱他控制饮酒"),
           ("change", C, "用户有轻度脂肪肝", "用户复查发现脂肪肝已经没了"),
           ("other_person", D, "用户有轻度脂肪肝", "用户他爸有轻度脂肪肝")),
        _g(("person_shift", S, "I got promoted to senior data engineer in October", "The user was promoted to senior data engineer in October"),
           ("change", C, "The user was promoted to senior data engineer in October", "用户升 senior data engineer 的事推迟到明年了"),
           ("other_person", D, "The user was promoted to senior data engineer in October", "The user's teammate Marcus was promoted to senior data engineer in October")),
        _g(("little_overlap", S, "The user's grandmother moved into a care home in Leeds last month", "Last month the user's nan went into residential care in Leeds"),
           ("change", C, "The user's grandmother lives in a care home in Leeds", "The user's grandmother has left the care home and is living with the user's aunt now"),
           ("other_person", D, "The user's grandmother moved into a care home in Leeds last month", "The user's great-aunt moved into a care home in Leeds last month")),
        _g(("zh_paraphrase", S, "用户让大家叫他阿杰，不喜欢被叫全名", "跟用户说话叫“阿杰”就好，他不爱别人喊他大名"),
           ("cross_lingual", S, "用户让大家叫他阿杰，不喜欢被叫全名", "The user goes by A-Jie and doesn't like being called by his full name"),
           ("change", C, "用户希望大家叫他阿杰", "用户说以后别叫他阿杰了，叫他 Jack 就行"),
           ("other_person", D, "用户希望大家叫他阿杰", "用户的儿子小名叫阿杰")),
        _g(("date_format", S, "The user's driving test is on 18 December at 9:10am", "The user takes their driving test at 09:10 on 18/12"),
           ("person_shift", S, "My driving test is on 18 December at ten past nine", "The user's driving test is at 9:10am on 18 December"),
           ("change", C, "The user's driving test is on 18 December", "The user's driving test has been moved to 8 January"),
           ("same_frame", D, "The user's driving test is on 18 December", "The user has a driving lesson on 16 December")),
        _g(("zh_measure", S, "用户每月定投沪深300指数基金1500元", "用户每个月往沪深300指数基金里定投一千五百块"),
           ("change", C, "用户每月定投沪深300指数基金", "用户已经停掉了沪深300的定投"),
           ("same_value", D, "用户每月定投指数基金1500元", "用户每个月有1500元的房补"),
           ("same_frame", D, "用户每月定投沪深300指数基金", "用户每月定投中证500指数基金")),
        _g(("zh_paraphrase", S, "用户今年春节回哈尔滨老家", "过年的时候用户要回哈尔滨的老家"),
           ("cross_lingual", S, "用户今年春节回哈尔滨老家", "The user is going home to Harbin for Chinese New Year"),
           ("change", C, "用户今年春节回哈尔滨老家", "用户今年春节不回哈尔滨了，把爸妈接来上海过年"),
           ("other_event_day", D, "用户今年春节回哈尔滨", "用户去年中秋回了一趟哈尔滨"),
           ("other_person", D, "用户春节回哈尔滨老家", "用户的同事春节回哈尔滨老家")),
        _g(("person_shift", S, "My rabbit's called Clover", "The user has a pet rabbit named Clover"),
           ("mixed", S, "The user has a rabbit called Clover", "用户养了一只叫 Clover 的兔子"),
           ("change", C, "The user has a rabbit called Clover", "Clover, the user's rabbit, died last week"),
           ("same_frame", D, "The user has a rabbit called Clover", "The user has a hamster called Pudding")),
        _g(("cross_lingual", S, "用户在做 Invisalign 隐形矫正，还要戴八个月", "The user has eight more months of Invisalign to go"),
           ("zh_paraphrase", S, "用户的隐形矫正还要再戴8个月", "用户的隐适美牙套还得戴八个月"),
           ("change", C, "The user has eight more months of Invisalign", "The user's orthodontist says they'll be finished with Invisalign in three months"),
           ("same_frame", D, "用户在做隐形牙齿矫正", "用户打算做近视矫正手术")),
        _g(("cross_lingual", S, "The user doesn't want to get messages after 11pm", "晚上11点以后别给用户发消息"),
           ("little_overlap", S, "The user doesn't want to be messaged after 11pm", "Hold any notifications for the user after eleven at night"),
           ("change", C, "The user doesn't want messages after 11pm", "The user has moved their quiet hours to start at midnight"),
           ("same_value", D, "The user doesn't want messages after 11pm", "The user's gym closes at 11pm")),
    )
)  # fmt: skip
"""The unspent eighth held-back part (in no other labelled file): scored once, at the end of
the session that receives it."""

FIRST_EIGHTH_GROUP = FIRST_DEV7_GROUP + len(DEV7_GROUPS)
"""Group numbers of this part start after those of the seventh development part."""


def eighth_held_back() -> list[tuple[int, Pair]]:
    """(group, pair) of :data:`EIGHTH_GROUPS`, numbered after the other labelled parts."""
    return [(FIRST_EIGHTH_GROUP + i, p) for i, g in enumerate(EIGHTH_GROUPS) for p in g]
