"""More development pairs for the pair decision (issue 28, step 1): written 2026-12-07,
09:46–09:52 UTC, by the helper session that wrote the sixth held-back part
(``tests/dedupe_pairs_held_back_6.py``), **blind to the decision's features** in the same way
(it did not read ``app/``, ``docs/DEDUPE.md``, ``scripts/calibrate_dedupe.py``,
``scripts/eval_dedupe_unseen.py`` or the fifth held-back part, and ran neither the service
nor any script of the decision on these pairs). Unlike the held-back parts, these pairs are
for development: people may look at them and tune on them (by grouped cross-validation).

No source fact here is a source fact of the sixth part or of another labelled pair file it
could read; source facts the fifth part may also start from were swapped out (a program said
only whether key words or sentences occur in that part, and how much of a sentence's wording
does, without showing its text). Each group starts from one source fact — a LoCoMo fact (the
dev split of the LoCoMo conversations: the question, its answer and the evidence turns,
reworded) or an everyday agent-memory fact (job loss, dislikes, money habits, remote work,
family, schedules, health, salary, diet, pets, travel, units, manager, exams) — and holds its
duplicates (``same``), changed values (``contradicts``) and other facts about the same person
(``distinct``). More of the hard duplicates than in the held-back parts: little shared
wording, idioms ("let go" / laid off, "hitting the gym", "月光族" / spends the whole salary),
a label against its definition, first person against third, English / Chinese and
code-mixed, Chinese restated with other words and measure words, a date written another
way. Hard distinct facts: the same frame with another compatible thing (``same_frame``), a
word inside a compound (``compound_head``: "kickboxing" / "boxing", "Home Alone" / home
alone, "olive oil" / olives, a greyhound called Pickle / pickles, 月光族 / 月光, 控糖 /
糖糖), the same fact about another person (``other_person``), two occurrences of a recurring
event (``other_event_day``), the same amount in another slot (``same_value``). Written as
users and agents say things, not toward any feature.
"""

# ruff: noqa: E501 - one pair per line reads best
from __future__ import annotations

from tests.dedupe_pairs import Pair
from tests.dedupe_pairs_held_back_6 import FIRST_SIXTH_GROUP, SIXTH_GROUPS
from tests.dedupe_pairs_unseen import C, D, S, _g

DEV6_GROUPS: tuple[tuple[Pair, ...], ...] = tuple(
    tuple(g)
    for g in (
        # conv-41: John does kickboxing and taekwondo (December 2022).
        _g(("label_definition", S, "John does kickboxing", "John trains in a sport that combines boxing punches with kicks"),
           ("cross_lingual", S, "John does kickboxing", "约翰在练踢拳"),
           ("same_frame", D, "约翰在练踢拳", "约翰在练跆拳道"),
           ("compound_head", D, "John does kickboxing", "John likes watching boxing on TV")),
        # conv-41: John failed the military aptitude test, then retook it in late February 2023 with great results.
        _g(("little_overlap", S, "John retook the military aptitude test and did very well", "On his second try at the army entrance test John got great results"),
           ("zh_paraphrase", S, "约翰重考了军队的能力倾向测试，成绩很好", "约翰第二次参加参军能力测试，考得很不错"),
           ("change", C, "John did well when he retook the military aptitude test", "John failed the military aptitude test again when he retook it"),
           ("other_event_day", D, "John failed the military aptitude test in December 2022", "John retook the military aptitude test in February 2023 and did well")),
        # conv-43: John often makes honey garlic chicken with roasted vegetables.
        _g(("little_overlap", S, "John often cooks honey garlic chicken with roasted vegetables", "A dish John makes a lot is chicken glazed with honey and garlic, served with roast veg"),
           ("cross_lingual", S, "John often cooks honey garlic chicken with roasted vegetables", "约翰经常做蜂蜜蒜香鸡配烤蔬菜"),
           ("compound_head", D, "约翰经常做蜂蜜蒜香鸡", "约翰喜欢吃蒜蓉西兰花")),
        # conv-43: John's favourite basketball player is LeBron James (Tim's too).
        _g(("mixed", S, "约翰最喜欢的球员是勒布朗·詹姆斯", "约翰最喜欢的球员是 LeBron"),
           ("change", C, "约翰最喜欢的篮球运动员是勒布朗·詹姆斯", "约翰最喜欢的篮球运动员是斯蒂芬·库里"),
           ("other_person", D, "John's favourite basketball player is LeBron James", "Tim's favourite basketball player is LeBron James")),
        # conv-30: Jon started going to the gym in early March 2023.
        _g(("idiom", S, "Jon started going to the gym in early March 2023", "Jon began hitting the gym at the start of March 2023"),
           ("zh_paraphrase", S, "乔恩2023年3月初开始去健身房", "从2023年3月上旬起，乔恩开始去健身房锻炼了"),
           ("change", C, "乔恩是2023年3月初开始去健身房的", "乔恩是2022年10月开始去健身房的"),
           ("same_frame", D, "Jon started going to the gym in March 2023", "Jon started taking salsa lessons in April 2023")),
        # conv-26: Caroline passed the adoption agency interviews on Friday, 20 October 2023.
        _g(("date_format", S, "Caroline passed the adoption agency interviews on 20 October 2023", "Caroline passed her adoption interviews on 2023-10-20"),
           ("cross_lingual", S, "Caroline passed the adoption agency interviews on 20 October 2023", "卡罗琳2023年10月20日通过了领养机构的面试"),
           ("change", C, "Caroline passed the adoption agency interviews", "Caroline did not pass the adoption agency interviews"),
           ("neighbour", D, "Caroline passed the adoption agency interviews in October 2023", "Caroline applied to adoption agencies in August 2023"),
           ("other_person", D, "卡罗琳2023年10月通过了领养机构的面试", "梅兰妮的一个朋友2022年领养了一个孩子")),
        # conv-26: Melanie loved reading "Charlotte's Web" as a kid.
        _g(("label_definition", S, "Melanie's favourite book as a child was Charlotte's Web", "As a little girl Melanie loved E. B. White's story about the pig and the spider"),
           ("cross_lingual", S, "Melanie's favourite book as a child was Charlotte's Web", "梅兰妮小时候最喜欢的书是《夏洛的网》"),
           ("neighbour", D, "梅兰妮小时候最喜欢《夏洛的网》", "梅兰妮很怕蜘蛛")),
        # conv-43: John was in Italy in December 2023.
        _g(("zh_paraphrase", S, "约翰2023年12月去了意大利", "2023年12月，约翰在意大利玩了一趟"),
           ("change", C, "John's trip to Italy was in December 2023", "John's trip to Italy was in April 2023"),
           ("same_frame", D, "约翰2023年12月去了意大利", "约翰去过纽约")),
        # conv-43: Tim's family usually watches "Home Alone" at Thanksgiving.
        _g(("little_overlap", S, "Tim's family usually watches Home Alone at Thanksgiving", "Home Alone is a Thanksgiving tradition in Tim's house"),
           ("cross_lingual", S, "Tim's family usually watches Home Alone at Thanksgiving", "蒂姆一家过感恩节时通常会看《小鬼当家》"),
           ("compound_head", D, "Tim's family watches Home Alone at Thanksgiving", "Tim likes being home alone at weekends")),
        # conv-41: Maria and her mom made dinner together on 3 May 2023.
        _g(("zh_paraphrase", S, "玛丽亚2023年5月3日和妈妈一起做了晚饭", "2023年5月3号晚上，玛丽亚跟她母亲一块儿下厨做了晚餐"),
           ("change", C, "玛丽亚2023年5月3日和妈妈一起做了晚饭", "玛丽亚2023年5月3日是和姐姐一起做的晚饭"),
           ("other_event_day", D, "Maria made dinner with her mother on 3 May 2023", "Maria had dinner with her gym friends on 7 July 2023")),
        # conv-26: Caroline joined a new LGBTQ activist group in July 2023.
        _g(("little_overlap", S, "Caroline joined a new LGBTQ activist group in July 2023", "In July 2023 Caroline became a member of a new group campaigning for LGBTQ rights"),
           ("mixed", S, "Caroline joined a new LGBTQ activist group in July 2023", "Caroline 2023年7月加入了一个新的 LGBTQ 维权团体"),
           ("same_frame", D, "Caroline joined a new LGBTQ activist group", "Caroline joined a mentorship program for LGBTQ youth"),
           ("neighbour", D, "卡罗琳2023年7月加入了一个新的 LGBTQ 维权团体", "卡罗琳2023年7月去参加了一个 LGBTQ 大会")),
        # conv-42: Nate creates gaming content for YouTube (November 2022).
        _g(("mixed", S, "Nate makes gaming videos for YouTube", "内特在 YouTube 上做游戏视频"),
           ("zh_paraphrase", S, "内特在油管上做游戏视频", "内特给油管拍游戏内容"),
           ("change", C, "Nate makes gaming videos for YouTube", "Nate has stopped making YouTube videos"),
           ("same_frame", D, "Nate makes gaming videos for YouTube", "Nate watches other people's gaming videos on YouTube")),
        # conv-26: Caroline went biking with friends the weekend before 13 September 2023.
        _g(("date_format", S, "Caroline went biking with friends the weekend before 13 September 2023", "On the weekend of 9–10 September 2023 Caroline and her friends went on a bike ride"),
           ("cross_lingual", S, "Caroline went biking with friends the weekend before 13 September 2023", "2023年9月9日、10日那个周末，卡罗琳和朋友们去骑自行车了"),
           ("same_frame", D, "Caroline went biking with friends in September 2023", "Caroline went hiking with friends in August 2023"),
           ("other_event_day", D, "Caroline went biking with friends the weekend before 13 September 2023", "Caroline went biking with friends in May 2023")),
        # conv-41: Maria took a creative writing class and then a poetry class (early 2023).
        _g(("little_overlap", S, "Maria has been taking a poetry class to put her feelings into words", "Maria is learning to write poems as a way to express how she feels"),
           ("cross_lingual", S, "Maria is taking a poetry class", "玛丽亚在上诗歌课"),
           ("same_frame", D, "Maria took a creative writing class", "Maria took a poetry class")),
        # conv-26: A friend made Caroline a hand-painted bowl for her 18th birthday, ten years ago.
        _g(("verb_number", S, "A friend made Caroline a hand-painted bowl for her 18th birthday", "For Caroline's eighteenth birthday, one of her friends painted a bowl for her by hand"),
           ("zh_measure", S, "朋友在卡罗琳18岁生日时送了她一个手绘的碗", "卡罗琳十八岁生日那年，朋友亲手画了只碗送给她"),
           ("other_person", D, "A friend made Caroline a hand-painted bowl", "Melanie made a black and white bowl in pottery class")),
        # ---- Everyday agent-memory facts.
        _g(("idiom", S, "The user was laid off from Intel in October", "Intel let the user go in October"),
           ("zh_paraphrase", S, "用户10月份被英特尔裁员了", "十月的时候英特尔把用户裁掉了"),
           ("change", C, "The user was laid off from Intel in October", "The user quit Intel in October to start their own company"),
           ("other_person", D, "用户10月份被英特尔裁员了", "用户的哥哥在英特尔上班")),
        _g(("person_shift", S, "I really don't like olives", "The user dislikes olives"),
           ("change", C, "The user dislikes olives", "用户现在很爱吃橄榄了"),
           ("compound_head", D, "The user dislikes olives", "用户做菜只用 olive oil")),
        _g(("label_definition", S, "用户是月光族", "用户每个月工资都花光，一分不剩"),
           ("cross_lingual", S, "用户是月光族", "The user spends their whole paycheck every month and saves nothing"),
           ("change", C, "用户是月光族", "用户现在每个月能存下一半工资"),
           ("neighbour", D, "用户是月光族", "用户每个月15号发工资"),
           ("compound_head", D, "用户是月光族", "用户喜欢晚上去海边看月光")),
        _g(("label_definition", S, "The user is a digital nomad", "The user works remotely while moving from country to country"),
           ("change", C, "The user is a digital nomad", "The user has settled down in Porto and stopped travelling for work"),
           ("neighbour", D, "The user is a digital nomad", "The user has visited 30 countries")),
        _g(("person_shift", S, "My sister just had a baby girl named Lily", "The user's sister gave birth to a daughter called Lily"),
           ("cross_lingual", S, "The user's sister had a baby girl named Lily", "用户的姐姐刚生了个女儿，叫莉莉"),
           ("change", C, "用户的姐姐刚生了个女儿，叫莉莉", "用户的姐姐生的是个儿子，叫乐乐"),
           ("other_person", D, "The user's sister had a baby girl named Lily", "The user's cousin had a baby in May")),
        _g(("verb_number", S, "The user picks up their daughter from ballet at 5:30 pm on Wednesdays", "Every Wednesday at half past five the user collects their daughter from ballet class"),
           ("change", C, "用户每周三下午五点半去接女儿下芭蕾课", "用户女儿的芭蕾课改到周五了，用户周五去接"),
           ("same_frame", D, "用户每周三下午五点半去接女儿下芭蕾课", "用户每周三下午五点半开部门周会")),
        _g(("zh_paraphrase", S, "用户有哮喘", "用户有气喘病"),
           ("label_definition", S, "The user has asthma", "The user has a long-term lung condition in which the airways narrow and breathing gets hard"),
           ("change", C, "用户有哮喘", "用户小时候有哮喘，现在已经好了"),
           ("same_frame", D, "用户有哮喘", "用户有鼻炎")),
        _g(("zh_measure", S, "用户月薪两万五", "用户每个月工资25000块"),
           ("change", C, "用户月薪两万五", "用户涨薪了，现在月薪三万"),
           ("neighbour", D, "用户月薪两万五", "用户的年终奖是两个月工资"),
           ("same_value", D, "用户月薪两万五", "用户的车贷一共还剩两万五")),
        _g(("zh_paraphrase", S, "用户在控糖", "用户最近尽量不吃甜的"),
           ("cross_lingual", S, "用户在控糖", "The user is cutting back on sugar"),
           ("compound_head", D, "用户在控糖", "用户的女儿小名叫糖糖"),
           ("neighbour", D, "用户在控糖", "用户属猪")),
        _g(("person_shift", S, "I adopted a rescue greyhound called Pickle", "The user has a rescue greyhound named Pickle"),
           ("mixed", S, "The user has a rescue greyhound named Pickle", "用户领养了一只退役灵缇，叫 Pickle"),
           ("compound_head", D, "The user's greyhound is named Pickle", "The user likes extra pickles on burgers"),
           ("same_frame", D, "The user has a rescue greyhound named Pickle", "The user fosters rescue cats")),
        _g(("little_overlap", S, "The user is visiting their grandparents in Kraków over Christmas", "For the Christmas holidays the user is going to see grandma and grandpa in Kraków"),
           ("change", C, "The user is visiting their grandparents in Kraków over Christmas", "The user is staying home this Christmas instead of going to Kraków"),
           ("other_event_day", D, "用户圣诞节要去克拉科夫看爷爷奶奶", "用户去年复活节去克拉科夫看过爷爷奶奶")),
        _g(("label_definition", S, "The user prefers metric units", "Give the user distances in kilometres and weights in kilograms, not miles and pounds"),
           ("change", C, "The user wants distances in kilometres", "The user wants distances in miles"),
           ("same_frame", D, "The user wants distances in kilometres", "The user wants temperatures in Celsius")),
        _g(("little_overlap", S, "The user's manager is Marcus", "Marcus is the user's boss"),
           ("mixed", S, "The user's manager is Marcus", "用户的领导是 Marcus"),
           ("change", C, "The user's manager is Marcus", "用户换了新领导，现在向 Tom 汇报")),
        _g(("zh_paraphrase", S, "用户在备考雅思，目标7分", "用户正在准备雅思考试，想考到7分"),
           ("mixed", S, "用户在备考雅思，目标7分", "用户在准备 IELTS，目标 band 7"),
           ("change", C, "用户备考雅思的目标是7分", "用户备考雅思的目标改成6.5分了"),
           ("same_frame", D, "用户在备考雅思", "用户在备考驾照科目一")),
    )
)  # fmt: skip
"""Development pairs (people may tune on them), grouped by source fact."""

FIRST_DEV6_GROUP = FIRST_SIXTH_GROUP + len(SIXTH_GROUPS)
"""Group numbers of this part start after those of the sixth held-back part."""


def dev6() -> list[tuple[int, Pair]]:
    """(group, pair) of :data:`DEV6_GROUPS`, numbered after the held-back parts."""
    return [(FIRST_DEV6_GROUP + i, p) for i, g in enumerate(DEV6_GROUPS) for p in g]
