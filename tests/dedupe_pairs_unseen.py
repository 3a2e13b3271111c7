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
        # ---- Added 2026-12-06 (issue 28 step 1, grown): written from LoCoMo dev facts and the
        # issue's kinds before any feature below was built; a fresh held-back part
        # (NEW_HELD_BACK) among these groups only.
        # conv-26: Caroline went to an LGBTQ support group on 7 May 2023.
        _g(("verb_number", S, "Caroline went to an LGBTQ support group on 7 May 2023", "On May 7th, 2023 Caroline attended a support group for LGBTQ people"),
           ("cross_lingual", S, "Caroline went to an LGBTQ support group on 7 May 2023", "卡罗琳2023年5月7日去了一个LGBTQ互助小组"),
           ("change", C, "Caroline went to an LGBTQ support group on 7 May 2023", "Caroline went to an LGBTQ support group on 17 May 2023"),
           ("neighbour", D, "Caroline went to an LGBTQ support group on 7 May 2023", "Caroline went to a pride parade in June 2023"),
           ("neighbour", D, "Caroline went to an LGBTQ support group on 7 May 2023", "Caroline gave a talk at a school on 7 May 2023")),
        # conv-26: Melanie painted a sunrise in 2022.
        _g(("little_overlap", S, "Melanie painted a sunrise in 2022", "In 2022 Melanie made a painting of the sun coming up"),
           ("mixed", S, "Melanie painted a sunrise in 2022", "Melanie 在2022年画了一幅日出"),
           ("change", C, "Melanie painted a sunrise in 2022", "Melanie painted a sunrise in 2020"),
           ("neighbour", D, "Melanie painted a sunrise in 2022", "Melanie painted a horse in 2023")),
        # conv-26: Melanie has been creating art for seven years.
        _g(("verb_number", S, "Melanie has been creating art for seven years", "Melanie has made art for 7 years now"),
           ("zh_paraphrase", S, "梅兰妮从事艺术创作已经七年了", "梅兰妮搞艺术有7年了"),
           ("change", C, "Melanie has been creating art for seven years", "Melanie has been creating art for three years"),
           ("neighbour", D, "Melanie has been creating art for seven years", "Melanie has been married for seven years")),
        # conv-26: Caroline used to go horseback riding with her dad.
        _g(("little_overlap", S, "Caroline used to go horseback riding with her dad", "Caroline and her father rode horses together when she was young"),
           ("cross_lingual", S, "Caroline used to go horseback riding with her dad", "卡罗琳以前常和爸爸一起骑马"),
           ("neighbour", D, "Caroline used to go horseback riding with her dad", "Caroline used to play the piano with her mom")),
        # conv-26: Caroline wants to work in counseling for transgender people.
        _g(("little_overlap", S, "Caroline wants a career in counseling for transgender people", "Caroline hopes to become a counselor who supports trans people"),
           ("mixed", S, "Caroline wants a career in counseling for transgender people", "Caroline 想做跨性别者的心理咨询工作"),
           ("change", C, "Caroline wants a career in counseling for transgender people", "Caroline no longer wants a career in counseling"),
           ("neighbour", D, "Caroline wants a career in counseling for transgender people", "Caroline wants to adopt a child")),
        # conv-26: Melanie bought figurines on 21 October 2023.
        _g(("verb_number", S, "Melanie bought the figurines on 21 October 2023", "Melanie purchased some figurines on Oct 21, 2023"),
           ("zh_paraphrase", S, "梅兰妮2023年10月21日买了小雕像", "梅兰妮在2023年10月21号购入了几个小摆件"),
           ("change", C, "Melanie bought the figurines on 21 October 2023", "Melanie bought the figurines on 12 October 2023"),
           ("neighbour", D, "Melanie bought the figurines on 21 October 2023", "Melanie got hurt and took a break from pottery in October 2023")),
        # conv-26: Melanie read "Becoming Nicole" on Caroline's suggestion.
        _g(("little_overlap", S, "Melanie read Becoming Nicole because Caroline recommended it", "Caroline suggested Becoming Nicole to Melanie, who then read it"),
           ("neighbour", D, "Melanie read Becoming Nicole because Caroline recommended it", "Melanie read a book about painting techniques")),
        # conv-42: Nate uses coconut milk to make lactose-free ice cream.
        _g(("little_overlap", S, "Nate makes his ice cream lactose-free with coconut milk", "Nate uses coconut milk instead of dairy in his ice cream"),
           ("cross_lingual", S, "Nate makes his ice cream lactose-free with coconut milk", "内特用椰奶做不含乳糖的冰淇淋"),
           ("change", C, "Nate makes his ice cream with coconut milk", "Nate makes his ice cream with almond milk"),
           ("neighbour", D, "Nate makes his ice cream lactose-free with coconut milk", "Nate likes dairy-free chocolate mousse")),
        # conv-42: Nate's gaming room has red and purple lighting.
        _g(("little_overlap", S, "Nate's gaming room has red and purple lighting", "The room where Nate plays games is lit in red and purple"),
           ("zh_paraphrase", S, "内特的游戏房用的是红色和紫色的灯光", "内特打游戏的房间亮着红紫两色的灯"),
           ("change", C, "Nate's gaming room has red and purple lighting", "Nate's gaming room has blue and green lighting"),
           ("neighbour", D, "Nate's gaming room has red and purple lighting", "Nate's living room has a big aquarium")),
        # conv-42: Nate got a third turtle after seeing it at a pet store.
        _g(("verb_number", S, "Nate bought a third turtle he saw at a pet store", "Nate now has 3 turtles after picking up one more at the pet shop"),
           ("cross_lingual", S, "Nate bought a third turtle he saw at a pet store", "内特在宠物店又买了一只乌龟，现在有三只了"),
           ("change", C, "Nate has three turtles", "Nate has two turtles"),
           ("neighbour", D, "Nate bought a third turtle he saw at a pet store", "Nate adopted a dog named Max")),
        # conv-42: Joanna's scripts were rejected twice.
        _g(("verb_number", S, "Joanna's scripts have been rejected twice", "Joanna has had 2 rejections for her scripts"),
           ("zh_measure", S, "乔安娜的剧本被拒了两次", "乔安娜的剧本已经2次被退稿"),
           ("change", C, "Joanna's scripts have been rejected twice", "Joanna's scripts have been rejected five times"),
           ("neighbour", D, "Joanna's scripts have been rejected twice", "Joanna has written two screenplays")),
        # conv-42: Joanna's cork board holds quotes, photos and keepsakes.
        _g(("little_overlap", S, "Joanna keeps inspiring quotes, photos and keepsakes on her cork board", "Joanna's pinboard is covered with motivational sayings, pictures and small mementos"),
           ("neighbour", D, "Joanna keeps inspiring quotes, photos and keepsakes on her cork board", "Joanna keeps her scripts in a drawer")),
        # conv-42: Max joined Nate's family in May 2022.
        _g(("little_overlap", S, "Max became part of Nate's family in May 2022", "Nate welcomed Max into his home in May 2022"),
           ("mixed", S, "Max became part of Nate's family in May 2022", "2022年5月 Max 成了 Nate 家的新成员"),
           ("change", C, "Max became part of Nate's family in May 2022", "Max became part of Nate's family in August 2022"),
           ("neighbour", D, "Max became part of Nate's family in May 2022", "Nate won an international tournament in May 2022")),
        # conv-43: John recommended Barcelona to Tim.
        _g(("little_overlap", S, "John recommended Barcelona to Tim", "John told Tim he should visit Barcelona"),
           ("cross_lingual", S, "John recommended Barcelona to Tim", "约翰向蒂姆推荐了巴塞罗那"),
           ("change", C, "John recommended Barcelona to Tim", "John recommended Lisbon to Tim"),
           ("neighbour", D, "John recommended Barcelona to Tim", "John travelled to Barcelona with his wife")),
        # conv-43: Tim is excited about The Wheel of Time.
        _g(("little_overlap", S, "Tim is excited about the new fantasy series The Wheel of Time", "Tim can't wait to watch The Wheel of Time"),
           ("neighbour", D, "Tim is excited about the new fantasy series The Wheel of Time", "Tim is reading A Dance with Dragons")),
        # conv-43: John organised a benefit basketball game.
        _g(("little_overlap", S, "John organised a benefit basketball game", "John put together a charity basketball match"),
           ("cross_lingual", S, "John organised a benefit basketball game", "约翰组织了一场篮球慈善赛"),
           ("neighbour", D, "John organised a benefit basketball game", "John scored his career-high points in a game")),
        # conv-43: John likes Aragorn for his brave, selfless attitude.
        _g(("little_overlap", S, "John admires Aragorn for being brave and selfless", "Aragorn's courage and selflessness are why John likes him"),
           ("neighbour", D, "John admires Aragorn for being brave and selfless", "John admires his coach for being patient")),
        # conv-43: John was in Chicago between August 11 and 15, 2023.
        _g(("verb_number", S, "John was in Chicago from August 11 to August 15, 2023", "John spent 11-15 Aug 2023 in Chicago"),
           ("zh_paraphrase", S, "约翰2023年8月11日到15日在芝加哥", "2023年8月11号至15号约翰待在芝加哥"),
           ("change", C, "John was in Chicago from August 11 to August 15, 2023", "John was in Chicago from August 21 to August 25, 2023"),
           ("neighbour", D, "John was in Chicago from August 11 to August 15, 2023", "John was in Seattle in October 2023")),
        # conv-41: John was promoted to assistant manager.
        _g(("little_overlap", S, "John got promoted to assistant manager", "John's new role after his promotion is assistant manager"),
           ("cross_lingual", S, "John got promoted to assistant manager", "约翰升职当了副经理"),
           ("change", C, "John got promoted to assistant manager", "John got promoted to regional manager"),
           ("neighbour", D, "John got promoted to assistant manager", "John got a new car")),
        # conv-41: John went to yoga with Rob.
        _g(("little_overlap", S, "John went to yoga with Rob", "Rob joined John for a yoga class"),
           ("mixed", S, "John went to yoga with Rob", "John 和 Rob 一起去上了瑜伽课"),
           ("change", C, "John went to yoga with Rob", "John went to yoga with Mike"),
           ("neighbour", D, "John went to yoga with Rob", "John went fishing with Rob")),
        # conv-41: Maria joined a nearby church to feel closer to a community.
        _g(("little_overlap", S, "Maria joined a nearby church to feel part of a community", "Wanting a sense of community, Maria became a member of a local church"),
           ("zh_paraphrase", S, "玛丽亚加入了附近的一家教堂，想融入社区", "为了找到归属感，玛丽亚成了附近教会的一员"),
           ("neighbour", D, "Maria joined a nearby church to feel part of a community", "Maria joined a gym near her house")),
        # conv-41: Maria planned dinner with friends from the gym.
        _g(("little_overlap", S, "Maria planned to have dinner with her gym friends", "Maria was going to eat out with people she knows from the gym"),
           ("neighbour", D, "Maria planned to have dinner with her gym friends", "Maria planned to visit her grandmother")),
        # conv-41: John and his mates gave out food at a homeless shelter.
        _g(("little_overlap", S, "John and his online group handed out food at a homeless shelter", "John's group from the internet distributed meals at a shelter for homeless people"),
           ("cross_lingual", S, "John and his online group handed out food at a homeless shelter", "约翰和网友们在流浪者收容所分发食物"),
           ("neighbour", D, "John and his online group handed out food at a homeless shelter", "John and his online group organised a toy drive")),
        # conv-30: Gina designed a limited collection of hoodies in June 2023.
        _g(("verb_number", S, "Gina designed a limited hoodie collection in June 2023", "In 06/2023 Gina created a limited-edition line of hoodies"),
           ("cross_lingual", S, "Gina designed a limited hoodie collection in June 2023", "吉娜在2023年6月设计了一个限量版连帽衫系列"),
           ("change", C, "Gina designed a limited hoodie collection in June 2023", "Gina designed a limited hoodie collection in March 2023"),
           ("neighbour", D, "Gina designed a limited hoodie collection in June 2023", "Gina launched an ad campaign in January 2023")),
        # conv-30: Gina's favourite dance style is contemporary.
        _g(("little_overlap", S, "Gina's favourite style of dance is contemporary", "Of all dance styles Gina likes contemporary best"),
           ("mixed", S, "Gina's favourite style of dance is contemporary", "Gina 最喜欢的舞蹈风格是 contemporary"),
           ("change", C, "Gina's favourite style of dance is contemporary", "Gina's favourite style of dance is hip-hop"),
           ("neighbour", D, "Gina's favourite style of dance is contemporary", "Gina's favourite colour is purple")),
        # conv-30: Jon wants Marley flooring in his dance studio.
        _g(("little_overlap", S, "Jon is looking for Marley flooring for his dance studio", "Jon wants to put a Marley floor in the studio"),
           ("change", C, "Jon is looking for Marley flooring for his dance studio", "Jon is looking for hardwood flooring for his dance studio"),
           ("neighbour", D, "Jon is looking for Marley flooring for his dance studio", "Jon is looking for a new apartment")),
        # conv-30: Jon went to a fair on 24 April 2023 to promote his studio.
        _g(("verb_number", S, "Jon went to a fair on 24 April 2023 to promote his dance studio", "On 4/24/2023 Jon attended a fair to get exposure for the studio"),
           ("change", C, "Jon went to a fair on 24 April 2023 to promote his dance studio", "Jon went to a fair on 14 April 2023 to promote his dance studio"),
           ("neighbour", D, "Jon went to a fair on 24 April 2023 to promote his dance studio", "Jon went to a dance competition in May 2023")),
        # conv-30: Gina interviewed for a design internship on 10 May 2023.
        _g(("verb_number", S, "Gina had an interview for a design internship on 10 May 2023", "Gina interviewed for an internship in design on May 10th, 2023"),
           ("zh_paraphrase", S, "吉娜2023年5月10日参加了设计实习的面试", "2023年5月10号吉娜去面试了一个设计实习岗位"),
           ("neighbour", D, "Gina had an interview for a design internship on 10 May 2023", "Gina opened an online clothing store")),
        # The user, first person and third person.
        _g(("person_shift", S, "I'm allergic to penicillin", "The user has a penicillin allergy"),
           ("person_shift", S, "My favourite sport is tennis", "The user's favourite sport is tennis"),
           ("change", C, "My favourite sport is tennis", "The user's favourite sport is badminton"),
           ("neighbour", D, "I'm allergic to penicillin", "The user is allergic to dust")),
        _g(("person_shift", S, "我对青霉素过敏", "用户对青霉素过敏"),
           ("person_shift", S, "我最喜欢的运动是网球", "用户最喜欢的运动是网球"),
           ("change", C, "用户最喜欢的运动是网球", "用户最喜欢的运动是羽毛球"),
           ("neighbour", D, "我对青霉素过敏", "用户对灰尘过敏")),
        _g(("person_shift", S, "I work as a nurse", "The user is a nurse"),
           ("person_shift", S, "I ran the Boston marathon last year", "The user ran the Boston marathon last year"),
           ("neighbour", D, "The user works as a nurse", "The user ran the marathon"),
           ("neighbour", D, "The user works as a nurse", "The user works night shifts at the hospital"),
           ("change", C, "The user works as a nurse", "The user works as a teacher")),
        _g(("person_shift", S, "我是一名护士", "用户是护士"),
           ("zh_paraphrase", S, "用户是护士", "用户在医院当护士"),
           ("neighbour", D, "用户是护士", "用户跑完了马拉松"),
           ("change", C, "用户是护士", "用户是老师")),
        # Another verb and a number written another way.
        _g(("verb_number", S, "The user has lived in Berlin for ten years", "The user moved to Berlin a decade ago and still lives there"),
           ("verb_number", S, "The user weighs 70 kg", "The user's weight is seventy kilograms"),
           ("change", C, "The user weighs 70 kg", "The user weighs 75 kg"),
           ("neighbour", D, "The user weighs 70 kg", "The user is 170 cm tall")),
        _g(("verb_number", S, "The user's daughter turned 12 in March", "The user's daughter had her twelfth birthday in March"),
           ("verb_number", S, "The user walks 10,000 steps a day", "The user does ten thousand steps daily"),
           ("change", C, "The user walks 10,000 steps a day", "The user walks 6,000 steps a day"),
           ("neighbour", D, "The user walks 10,000 steps a day", "The user drinks 2 litres of water a day")),
        _g(("verb_number", S, "The user earns $85,000 a year", "The user's annual salary is 85k dollars"),
           ("verb_number", S, "The user's flight lands at 6:30 pm", "The user's plane arrives at 18:30"),
           ("change", C, "The user's flight lands at 6:30 pm", "The user's flight lands at 8:30 pm"),
           ("neighbour", D, "The user's flight lands at 6:30 pm", "The user's train leaves at 6:30 pm")),
        # Chinese restated with other words and a measure word.
        _g(("zh_measure", S, "用户有三个孩子", "用户家有3个小孩"),
           ("zh_measure", S, "用户每周跑步四次", "用户一周跑4回步"),
           ("change", C, "用户有三个孩子", "用户有四个孩子"),
           ("neighbour", D, "用户有三个孩子", "用户有三辆自行车")),
        _g(("zh_measure", S, "用户每天看一本书", "用户一天读完1本书"),
           ("zh_measure", S, "用户买了两台电脑", "用户购入了2部电脑"),
           ("change", C, "用户买了两台电脑", "用户买了一台电脑"),
           ("neighbour", D, "用户买了两台电脑", "用户买了两张机票")),
        _g(("zh_paraphrase", S, "用户的女儿在北京读大学", "用户女儿在北京上大学"),
           ("zh_paraphrase", S, "用户周末喜欢去爬山", "用户一到周末就爱去登山"),
           ("change", C, "用户的女儿在北京读大学", "用户的女儿在上海读大学"),
           ("neighbour", D, "用户周末喜欢去爬山", "用户周末喜欢在家看电影")),
        _g(("zh_paraphrase", S, "用户下个月要搬家", "用户打算下个月搬到新家"),
           ("zh_paraphrase", S, "用户戒烟三年了", "用户已经三年没抽烟了"),
           ("neighbour", D, "用户下个月要搬家", "用户下个月要出差")),
        # A label and its definition.
        _g(("label_definition", S, "The user is a vegetarian", "The user does not eat meat"),
           ("label_definition", S, "The user is a software engineer", "The user writes software for a living"),
           ("neighbour", D, "The user is a software engineer", "The user is learning to write poetry"),
           ("change", C, "The user is a software engineer", "The user is a data analyst")),
        _g(("label_definition", S, "The user is an only child", "The user has no brothers or sisters"),
           ("label_definition", S, "The user is retired", "The user no longer works and lives on a pension"),
           ("neighbour", D, "The user is an only child", "The user has two cousins")),
        _g(("label_definition", S, "用户是独生子女", "用户没有兄弟姐妹"),
           ("label_definition", S, "用户是程序员", "用户的工作是写代码"),
           ("neighbour", D, "用户是程序员", "用户在学画画")),
        _g(("label_definition", S, "The user is diabetic", "The user has diabetes and checks their blood sugar"),
           ("label_definition", S, "用户是夜班工人", "用户晚上上班，白天睡觉"),
           ("neighbour", D, "The user is diabetic", "The user's father has high blood pressure")),
        # English / Chinese and code-mixed.
        _g(("cross_lingual", S, "The user has two cats", "用户养了两只猫"),
           ("cross_lingual", S, "用户每天早上跑步", "The user runs every morning"),
           ("change", C, "The user has two cats", "用户养了三只猫"),
           ("neighbour", D, "The user runs every morning", "用户每天晚上游泳")),
        _g(("cross_lingual", S, "The user's birthday is on June 5", "用户的生日是6月5日"),
           ("mixed", S, "The user's birthday is on June 5", "用户的 birthday 是 June 5"),
           ("change", C, "The user's birthday is on June 5", "用户的生日是7月5日"),
           ("neighbour", D, "The user's birthday is on June 5", "用户的结婚纪念日是6月5日")),
        _g(("mixed", S, "用户在 Google 做 software engineer", "用户是谷歌的软件工程师"),
           ("mixed", S, "用户在 Google 做 software engineer", "The user is a software engineer at Google"),
           ("change", C, "用户在 Google 做 software engineer", "用户在 Microsoft 做 software engineer"),
           ("neighbour", D, "用户在 Google 做 software engineer", "用户的朋友在 Google 做 designer")),
        _g(("mixed", S, "用户每周去 gym 三次", "用户一周健身3次"),
           ("cross_lingual", S, "用户每周去 gym 三次", "The user goes to the gym three times a week"),
           ("change", C, "用户每周去 gym 三次", "用户每周去 gym 五次"),
           ("neighbour", D, "用户每周去 gym 三次", "用户每周上三次钢琴课")),
        _g(("cross_lingual", S, "The user speaks Japanese fluently", "用户日语说得很流利"),
           ("mixed", S, "The user speaks Japanese fluently", "用户的 Japanese 很 fluent"),
           ("neighbour", D, "The user speaks Japanese fluently", "用户在学韩语")),
        # Little shared wording (the user).
        _g(("little_overlap", S, "The user can't swim", "The user never learned how to swim and stays out of deep water"),
           ("little_overlap", S, "The user is saving up for a house", "The user puts money aside every month to buy a home"),
           ("neighbour", D, "The user is saving up for a house", "The user is saving up for a new car"),
           ("neighbour", D, "The user can't swim", "The user can't ride a bike")),
        _g(("little_overlap", S, "The user takes the train to the office", "The user commutes to work by rail"),
           ("little_overlap", S, "The user got married in 2019", "The user's wedding was in 2019"),
           ("change", C, "The user got married in 2019", "The user got married in 2021"),
           ("neighbour", D, "The user got married in 2019", "The user graduated in 2019")),
        _g(("little_overlap", S, "The user's mother passed away last year", "The user lost their mom last year"),
           ("little_overlap", S, "The user is afraid of dogs", "Dogs scare the user"),
           ("neighbour", D, "The user is afraid of dogs", "The user is afraid of heights"),
           ("neighbour", D, "The user's mother passed away last year", "The user's mother lives in Ohio")),
        _g(("zh_paraphrase", S, "用户害怕狗", "用户一看到狗就害怕"),
           ("zh_paraphrase", S, "用户的母亲去年去世了", "用户的妈妈去年走了"),
           ("neighbour", D, "用户害怕狗", "用户害怕坐电梯"),
           ("neighbour", D, "用户的母亲去年去世了", "用户的母亲住在广州")),
        _g(("zh_paraphrase", S, "用户在存钱买房", "用户每个月攒钱准备买房子"),
           ("zh_paraphrase", S, "用户坐地铁上班", "用户每天搭地铁去公司"),
           ("neighbour", D, "用户在存钱买房", "用户在存钱买车"),
           ("change", C, "用户坐地铁上班", "用户开车上班")),
        # The same person, hard negatives and contradictions.
        _g(("little_overlap", S, "Maria volunteers at a homeless shelter", "Maria gives her time to help at a shelter for the homeless"),
           ("neighbour", D, "Maria volunteers at a homeless shelter", "Maria works as an administrative assistant"),
           ("neighbour", D, "Maria volunteers at a homeless shelter", "Maria ran a charity race"),
           ("change", C, "Maria volunteers at a homeless shelter", "Maria stopped volunteering at the homeless shelter")),
        _g(("little_overlap", S, "Tim collects Harry Potter memorabilia", "Tim has a collection of Harry Potter items"),
           ("cross_lingual", S, "Tim collects Harry Potter memorabilia", "蒂姆收藏哈利·波特的周边"),
           ("neighbour", D, "Tim collects Harry Potter memorabilia", "Tim wants to visit Universal Studios"),
           ("neighbour", D, "Tim collects Harry Potter memorabilia", "Tim plays basketball in a league")),
    )
)  # fmt: skip

NEXT_GROUPS: tuple[tuple[Pair, ...], ...] = tuple(
    tuple(g)
    for g in (
        # Written 2026-12-06 after the second run of issue 28 (the held-back part above had
        # been scored twice): the next held-back part, never scored nor looked at by the
        # decision. LoCoMo dev facts (conv-26, 30, 42, 43) and the user's own.
        _g(("little_overlap", S, "Joanna made a bookmark for one of the women in her writing club", "Joanna crafted a page marker as a gift for a member of her writers' group"),
           ("cross_lingual", S, "Joanna made a bookmark for one of the women in her writing club", "乔安娜给写作俱乐部的一位女士做了一个书签"),
           ("change", C, "Joanna made a bookmark for one of the women in her writing club", "Joanna made a scarf for one of the women in her writing club"),
           ("neighbour", D, "Joanna made a bookmark for one of the women in her writing club", "Joanna joined a writing club last year")),
        _g(("verb_number", S, "Melanie and her family saw the Perseid meteor shower on their camping trip last year", "Last year, while camping, Melanie's family watched the Perseids"),
           ("mixed", S, "Melanie and her family saw the Perseid meteor shower on their camping trip last year", "Melanie 一家去年露营时看到了 Perseid meteor shower"),
           ("neighbour", D, "Melanie and her family saw the Perseid meteor shower on their camping trip last year", "Melanie and her family went camping at the beach last year")),
        _g(("little_overlap", S, "Melanie says running has been great for her mental health", "Running has done wonders for Melanie's mental wellbeing"),
           ("cross_lingual", S, "Melanie says running has been great for her mental health", "梅兰妮说跑步对她的心理健康很有帮助"),
           ("change", C, "Melanie says running has been great for her mental health", "Melanie says running has not helped her mental health"),
           ("neighbour", D, "Melanie says running has been great for her mental health", "Melanie says painting helps her relax")),
        _g(("little_overlap", S, "Tim is writing a fantasy novel", "The book Tim is working on belongs to the fantasy genre"),
           ("cross_lingual", S, "Tim is writing a fantasy novel", "蒂姆在写一部奇幻小说"),
           ("change", C, "Tim is writing a fantasy novel", "Tim is writing a science-fiction novel"),
           ("neighbour", D, "Tim is writing a fantasy novel", "Tim is reading a fantasy novel")),
        _g(("verb_number", S, "John collects sneakers", "John has a collection of sneakers"),
           ("cross_lingual", S, "John collects sneakers", "约翰收集运动鞋"),
           ("neighbour", D, "John collects sneakers", "John collects jerseys")),
        _g(("person_shift", S, "The user's favourite movie trilogy is The Lord of the Rings", "I love the Lord of the Rings trilogy more than any other films"),
           ("change", C, "The user's favourite movie trilogy is The Lord of the Rings", "The user's favourite movie trilogy is The Matrix"),
           ("neighbour", D, "The user's favourite movie trilogy is The Lord of the Rings", "The user has watched The Lord of the Rings twice")),
        _g(("verb_number", S, "Gina launched an ad campaign for her store on 29 January 2023", "On Jan 29, 2023 Gina started advertising her shop"),
           ("cross_lingual", S, "Gina launched an ad campaign for her store on 29 January 2023", "吉娜于2023年1月29日为她的店铺推出了广告活动"),
           ("change", C, "Gina launched an ad campaign for her store on 29 January 2023", "Gina launched an ad campaign for her store on 9 January 2023"),
           ("neighbour", D, "Gina launched an ad campaign for her store on 29 January 2023", "Gina opened an online clothing store in 2023")),
        _g(("label_definition", S, "The user is colour-blind", "The user cannot tell red from green"),
           ("label_definition", S, "The user is an insomniac", "The user has trouble falling asleep most nights"),
           ("neighbour", D, "The user is colour-blind", "The user wears glasses"),
           ("neighbour", D, "The user is an insomniac", "The user naps after lunch")),
        _g(("little_overlap", S, "The user's dentist is Dr. Lee", "The user sees Dr. Lee for dental check-ups"),
           ("change", C, "The user's dentist is Dr. Lee", "The user's dentist is Dr. Patel"),
           ("neighbour", D, "The user's dentist is Dr. Lee", "The user's doctor is Dr. Lee")),
        _g(("zh_paraphrase", S, "用户每天骑自行车上班", "用户天天骑车去公司"),
           ("change", C, "用户每天骑自行车上班", "用户每天坐公交上班"),
           ("neighbour", D, "用户每天骑自行车上班", "用户每天骑自行车去健身房")),
        _g(("label_definition", S, "用户是左撇子", "用户习惯用左手写字"),
           ("cross_lingual", S, "用户是左撇子", "The user is a lefty"),
           ("neighbour", D, "用户是左撇子", "用户是近视眼")),
        _g(("verb_number", S, "The user's rent is 2,000 dollars a month", "The user pays $2k in rent monthly"),
           ("cross_lingual", S, "The user's rent is 2,000 dollars a month", "用户每月房租两千美元"),
           ("change", C, "The user's rent is 2,000 dollars a month", "The user's rent is 2,500 dollars a month"),
           ("neighbour", D, "The user's rent is 2,000 dollars a month", "The user's car payment is 2,000 dollars a month")),
        _g(("cross_lingual", S, "The user works at Tencent", "用户在腾讯上班"),
           ("change", C, "The user works at Tencent", "用户在阿里巴巴工作"),
           ("neighbour", D, "The user works at Tencent", "用户的丈夫在腾讯工作")),
        _g(("little_overlap", S, "The user's son is learning the violin", "The user's boy takes violin lessons"),
           ("change", C, "The user's son is learning the violin", "The user's son stopped learning the violin"),
           ("neighbour", D, "The user's son is learning the violin", "The user's son is learning the cello")),
    )
)  # fmt: skip
"""The next held-back part (14 groups): not in :data:`GROUPS`, so neither development nor
held back above; ``scripts/eval_dedupe_unseen.py --next-held-back`` scores it, once, at the
end of the session that next changes the decision."""


def next_held_back() -> list[tuple[int, Pair]]:
    """(group, pair) of :data:`NEXT_GROUPS`, numbered after :data:`GROUPS`."""
    return [(len(GROUPS) + i, p) for i, g in enumerate(NEXT_GROUPS) for p in g]


FIRST_GROUPS = 25
"""The groups of 2026-12-04 (6f20a15); those after them were added on 2026-12-06."""

OLD_HELD_BACK: tuple[int, ...] = tuple(i for i in range(FIRST_GROUPS) if i % 5 == 4)
"""The first held-back part (every fifth of the first groups): scored on 2026-12-04, so it
has been looked at and is part of the development groups now."""

HELD_BACK: tuple[int, ...] = tuple(
    i for i in range(FIRST_GROUPS, len(GROUPS)) if (i - FIRST_GROUPS) % 5 == 3
)
"""Indexes of the groups held back until the end: every fifth of the groups added on
2026-12-06 (a fresh part: nothing was tuned or looked at on it)."""


def development() -> list[tuple[int, Pair]]:
    """(group, pair) of the groups not held back."""
    return [(i, p) for i, g in enumerate(GROUPS) if i not in HELD_BACK for p in g]


def held_back() -> list[tuple[int, Pair]]:
    """(group, pair) of the held-back groups."""
    return [(i, p) for i, g in enumerate(GROUPS) if i in HELD_BACK for p in g]
