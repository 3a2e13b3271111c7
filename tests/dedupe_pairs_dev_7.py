"""More development pairs for the pair decision (issue 28, step 1): written 2026-12-07,
12:50–12:56 UTC (``date -u`` on the session's machine), by the helper session that wrote the
seventh held-back part (``tests/dedupe_pairs_held_back_7.py``), **blind to the decision's
features** in the same way (it did not read ``app/``, ``docs/DEDUPE.md``,
``scripts/calibrate_dedupe.py``, ``scripts/eval_dedupe_unseen.py`` or the pair-decision tests
under ``tests/services/memory/``, and ran neither the service nor any script of the decision on
these pairs). Unlike the held-back parts, these pairs are for development: people may look at
them and tune on them (by grouped cross-validation).

No source fact here is a source fact of the seventh part or of another labelled pair file. Each
group starts from one source fact — a LoCoMo fact (the dev split of the LoCoMo conversations:
the question, its answer and the evidence turns, reworded) or an everyday agent-memory fact (a
child's lessons, a car, rent day, a race, back trouble, a favourite tea, the team's CI, a
partner's job, a move abroad, a password manager, a parent's operation, an anniversary, car
insurance) — and holds its duplicates (``same``), changed values (``contradicts``) and other
facts about the same person (``distinct``). Duplicates: little shared wording, a label against
its definition, first person against third, English / Chinese and code-mixed, Chinese restated
with other words and measure words, a date written another way. Hard distinct facts: the same
frame with another compatible thing (``same_frame``), a word inside a compound
(``compound_head``: Go / Pokémon Go, 彩虹人行道 / 彩虹糖, 腰 / 腰果), the same fact about another person
(``other_person``), two occurrences of a recurring event (``other_event_day``), the same amount
or day in another slot (``same_value``). Written as users and agents say things, not toward any
feature.
"""

# ruff: noqa: E501 - one pair per line reads best
from __future__ import annotations

from tests.dedupe_pairs import Pair
from tests.dedupe_pairs_held_back_7 import FIRST_SEVENTH_GROUP, SEVENTH_GROUPS
from tests.dedupe_pairs_unseen import C, D, S, _g

DEV7_GROUPS: tuple[tuple[Pair, ...], ...] = tuple(
    tuple(g)
    for g in (
        # conv-43: John took a trip to the Rocky Mountains in 2022.
        _g(("cross_lingual", S, "John went to the Rocky Mountains in 2022", "约翰2022年去过落基山脉"),
           ("neighbour", D, "约翰2022年去过落基山脉", "约翰2023年8月初去西雅图打了一场比赛"),
           ("same_frame", D, "John took a trip to the Rocky Mountains in 2022", "John took a trip to Paris in 2022")),
        # conv-43: Tim's favourite piece on the piano is the theme from "Harry Potter and the Philosopher's Stone" (August 2023).
        _g(("little_overlap", S, "Tim's favourite thing to play on the piano is the theme from Harry Potter and the Philosopher's Stone", "When Tim sits at the piano, the tune he loves jamming to most is from the first Harry Potter film"),
           ("mixed", S, "Tim's favourite piece on the piano is the theme from Harry Potter and the Philosopher's Stone", "蒂姆最喜欢用钢琴弹《哈利·波特与魔法石》的主题曲"),
           ("change", C, "蒂姆最喜欢用钢琴弹《哈利·波特》的主题曲", "蒂姆现在最喜欢用钢琴弹《星球大战》的主题曲"),
           ("same_frame", D, "蒂姆在学钢琴", "蒂姆在学小提琴")),
        # conv-42: Nate's second tournament win was a local Street Fighter tournament (late April 2022).
        _g(("cross_lingual", S, "Nate won his second tournament playing Street Fighter", "内特拿到的第二个比赛冠军是打《街头霸王》赢的"),
           ("change", C, "Nate's second tournament win was a Street Fighter tournament", "Nate's second tournament win was a Super Smash Bros. tournament"),
           ("other_event_day", D, "Nate won his second tournament in late April 2022", "Nate won his third tournament in late May 2022"),
           ("same_frame", D, "Nate plays a lot of Street Fighter with his friends", "Nate plays a lot of CS:GO")),
        # conv-42: Joanna's writers group is writing "Finding Home", a script about a girl looking for her true home.
        _g(("label_definition", S, "Joanna's writers group is working on a script called Finding Home", "Joanna and her writing group are writing a script about a girl on a journey to find her true home"),
           ("mixed", S, "Joanna's writers group is working on a script called Finding Home", "乔安娜和写作小组在写一个叫 Finding Home 的剧本"),
           ("change", C, "The script Joanna's group is writing is called Finding Home", "Joanna's group renamed their script from Finding Home to The Long Way Back"),
           ("compound_head", D, "Joanna's group is writing a script called Finding Home", "Joanna writes from home most days")),
        # conv-42: Joanna took a photo of a sunset on a hike near Fort Wayne last summer.
        _g(("cross_lingual", S, "Joanna photographed a sunset near Fort Wayne on a hike last summer", "乔安娜去年夏天在韦恩堡附近徒步时拍了一张日落"),
           ("same_frame", D, "乔安娜在韦恩堡附近拍了一张日落", "乔安娜在韦恩堡附近拍了一片向日葵田"),
           ("other_person", D, "Joanna took a photo of a sunset near Fort Wayne", "Nate took a photo of a sunset near Fort Wayne")),
        # conv-41: Maria painted a castle on a hill to remember her trip to England.
        _g(("zh_paraphrase", S, "玛丽亚画了一幅山上的城堡，纪念她去英格兰的旅行", "几年前去英国玩过以后，玛丽亚在家画了座建在山坡上的城堡"),
           ("change", C, "Maria's castle painting comes from her trip to England", "Maria's castle painting comes from her trip to Spain"),
           ("same_frame", D, "玛丽亚去过英格兰", "玛丽亚去过西班牙")),
        # conv-26: Caroline painted a self-portrait the week before 23 August 2023.
        _g(("date_format", S, "Caroline painted a self-portrait the week before 23 August 2023", "Caroline did a self-portrait in mid-August '23"),
           ("cross_lingual", S, "Caroline painted a self-portrait in August 2023", "卡罗琳2023年8月画了一幅自画像"),
           ("other_person", D, "Caroline painted a self-portrait", "Melanie painted a self-portrait")),
        # conv-26: Melanie made a plate in pottery class on 24 August 2023.
        _g(("date_format", S, "Melanie made a plate in pottery class on 24 August 2023", "Melanie made a plate at her pottery class on 2023-08-24"),
           ("zh_measure", S, "梅兰妮8月24日在陶艺课上做了一个盘子", "梅兰妮8月24号在陶艺班上捏了只盘子"),
           ("same_frame", D, "梅兰妮在陶艺课上做了一个盘子", "梅兰妮在陶艺课上做了一个碗"),
           ("other_event_day", D, "Melanie went to pottery class on 24 August 2023", "Melanie went to a pottery workshop on 14 July 2023")),
        # conv-26: Caroline's youth center is putting on a talent show for the kids in September 2023.
        _g(("cross_lingual", S, "Caroline's youth center is holding a talent show in September 2023", "卡罗琳所在的青少年中心2023年9月要办一场才艺表演"),
           ("change", C, "卡罗琳的青少年中心9月要办才艺表演", "卡罗琳的青少年中心把才艺表演取消了"),
           ("neighbour", D, "Caroline's youth center is putting on a talent show", "Caroline put one of her paintings in an art show"),
           ("other_event_day", D, "Caroline's youth center is holding a talent show in September 2023", "Caroline's youth center held a talent show in September 2022")),
        # conv-41: John had a small party with some veterans on Friday, 19 May 2023.
        _g(("date_format", S, "John had a small party with some veterans on Friday, 19 May 2023", "On 5/19/23 John hosted a get-together for veterans"),
           ("zh_paraphrase", S, "约翰2023年5月19日和一些退伍军人办了个小聚会", "2023年5月19号那个周五，约翰请几位老兵聚了聚，听他们讲故事"),
           ("change", C, "John's party with the veterans was on 19 May 2023", "John's party with the veterans was on 26 May 2023"),
           ("neighbour", D, "约翰5月19日和退伍军人办了聚会", "约翰8月初参加了一场为退伍军人募捐的5公里跑")),
        # conv-30: Jon uses a clipboard with a notepad to set goals, track achievements and find what to improve.
        _g(("little_overlap", S, "Jon uses a clipboard with a notepad to set goals and track what he's achieved", "Jon keeps himself organised with a notepad on a clipboard where he writes targets and ticks off progress"),
           ("mixed", S, "Jon uses a clipboard to set goals and track his progress", "Jon 用一个 clipboard 记目标、追踪自己的进度"),
           ("same_frame", D, "乔恩用一块写字夹板记录目标", "乔恩用手机日历安排舞蹈课")),
        # conv-26: Caroline came across a rainbow sidewalk on a walk in her neighbourhood.
        _g(("little_overlap", S, "Caroline came across a rainbow sidewalk on a walk in her neighbourhood", "Out walking near home, Caroline found a pavement painted in rainbow colours for Pride Month"),
           ("cross_lingual", S, "Caroline found a rainbow sidewalk in her neighbourhood", "卡罗琳在家附近散步时发现了一条彩虹人行道"),
           ("compound_head", D, "卡罗琳在家附近发现了一条彩虹人行道", "卡罗琳很喜欢吃彩虹糖")),
        # conv-41: John had a film camera as a kid and took plenty of beach pictures.
        _g(("cross_lingual", S, "John had a film camera when he was a kid", "约翰小时候有一台胶片相机"),
           ("change", C, "约翰小时候有一台胶片相机", "约翰小时候从来没有过相机"),
           ("same_frame", D, "约翰小时候有一台胶片相机", "约翰小时候有一个小玩偶，总能让他开心起来"),
           ("other_person", D, "John had a film camera as a kid", "John's daughter has a toy camera")),
        # ---- Everyday agent-memory facts.
        _g(("zh_paraphrase", S, "用户的儿子每周六上午上围棋课", "用户家儿子每个星期六早上去学围棋"),
           ("cross_lingual", S, "用户的儿子每周六上午上围棋课", "The user's son has Go lessons every Saturday morning"),
           ("change", C, "用户的儿子每周六上午上围棋课", "用户儿子的围棋课改到周日下午了"),
           ("compound_head", D, "The user's son takes Go lessons", "The user's son plays Pokémon Go with his friends"),
           ("other_event_day", D, "用户的儿子12月5日上了围棋课", "用户的儿子11月28日上了围棋课")),
        _g(("person_shift", S, "I drive a blue Mazda CX-5", "The user's car is a blue Mazda CX-5"),
           ("mixed", S, "The user drives a blue Mazda CX-5", "用户开一辆蓝色的马自达 CX-5"),
           ("change", C, "The user drives a blue Mazda CX-5", "The user sold the Mazda and now takes the train everywhere"),
           ("other_person", D, "The user drives a blue Mazda CX-5", "The user's wife drives a white Toyota Corolla"),
           ("neighbour", D, "The user drives a blue Mazda CX-5", "用户的车每年十月做保养")),
        _g(("zh_paraphrase", S, "用户每月5号给房东交房租", "每个月5日是用户交房租的日子"),
           ("cross_lingual", S, "用户每月5号交房租", "The user's rent is due on the 5th of every month"),
           ("change", C, "用户每月5号交房租", "房东把用户的交租日改到每月1号了"),
           ("same_value", D, "用户每月5号交房租", "用户每月5号还花呗")),
        _g(("label_definition", S, "The user is training for their first sprint triathlon in June", "In June the user will do their first short race of swimming, cycling and running back to back, and is training for it"),
           ("cross_lingual", S, "The user is training for a sprint triathlon in June", "用户在为六月的一场短距离铁人三项做训练"),
           ("change", C, "The user is doing a sprint triathlon in June", "The user pulled out of the June triathlon after hurting their shoulder"),
           ("neighbour", D, "The user is training for a triathlon", "The user ran a 10K last month"),
           ("same_frame", D, "The user is training for a sprint triathlon in June", "The user is training for a charity bike ride in June")),
        _g(("label_definition", S, "用户有腰椎间盘突出", "用户腰椎里的软骨鼓出来压到了神经，一久坐腰就疼"),
           ("cross_lingual", S, "用户有腰椎间盘突出", "The user has a herniated disc in their lower back"),
           ("same_frame", D, "用户有腰椎间盘突出", "用户有颈椎病"),
           ("compound_head", D, "用户腰不好", "用户爱吃腰果")),
        _g(("zh_paraphrase", S, "用户最爱喝普洱", "普洱茶是用户最喜欢的茶"),
           ("cross_lingual", S, "用户最爱喝普洱", "The user's favourite tea is pu-erh"),
           ("change", C, "用户最爱喝普洱", "用户现在更爱喝白茶，普洱喝得少了"),
           ("same_frame", D, "用户最爱喝普洱", "用户最爱吃云南的鲜花饼")),
        _g(("little_overlap", S, "The user's team moved their CI from Jenkins to GitHub Actions", "Builds and tests for the user's team now run on GitHub Actions instead of Jenkins"),
           ("mixed", S, "The user's team uses GitHub Actions for CI", "用户团队的 CI 跑在 GitHub Actions 上"),
           ("change", C, "The user's team runs CI on GitHub Actions", "The user's team has switched its CI to GitLab"),
           ("same_frame", D, "The user's team uses GitHub Actions for CI", "The user's team uses Sentry for error tracking"),
           ("other_person", D, "The user's team uses GitHub Actions for CI", "用户朋友的公司还在用 Jenkins")),
        _g(("little_overlap", S, "The user's husband Sam is a paramedic", "Sam, the user's husband, works on an ambulance crew"),
           ("cross_lingual", S, "The user's husband Sam is a paramedic", "用户的丈夫 Sam 是一名急救员"),
           ("change", C, "The user's husband Sam works as a paramedic", "Sam has left the ambulance service and now teaches first aid courses"),
           ("other_person", D, "The user's husband Sam is a paramedic", "The user's brother-in-law is a firefighter")),
        _g(("date_format", S, "The user is moving to Melbourne in March 2027", "The user's move to Melbourne is planned for 03/2027"),
           ("cross_lingual", S, "The user is moving to Melbourne in March", "用户三月份要搬到墨尔本"),
           ("change", C, "The user is moving to Melbourne in March", "用户不搬墨尔本了，决定留在新加坡"),
           ("other_person", D, "用户三月份要搬到墨尔本", "用户的表妹在墨尔本读书")),
        _g(("person_shift", S, "I keep all my passwords in 1Password", "The user stores their passwords in 1Password"),
           ("mixed", S, "The user uses 1Password as their password manager", "用户用 1Password 管理密码"),
           ("change", C, "The user uses 1Password", "The user moved from 1Password to Bitwarden"),
           ("compound_head", D, "The user keeps their passwords in 1Password", "The user's Wi-Fi password is on a sticky note on the fridge"),
           ("same_frame", D, "用户用 1Password 管理密码", "用户用 Authy 收两步验证码")),
        _g(("zh_paraphrase", S, "用户的妈妈下个月要做白内障手术", "用户母亲下月要动白内障手术"),
           ("cross_lingual", S, "用户的妈妈下个月要做白内障手术", "The user's mum is having cataract surgery next month"),
           ("change", C, "用户的妈妈下个月要做白内障手术", "用户妈妈的白内障手术改到明年一月了"),
           ("other_person", D, "用户的妈妈下个月要做白内障手术", "用户的外婆前年做过白内障手术")),
        _g(("cross_lingual", S, "用户的结婚纪念日是10月18日", "The user's wedding anniversary is October 18th"),
           ("same_value", D, "用户的结婚纪念日是10月18日", "用户的女儿10月18日过生日")),
        _g(("zh_measure", S, "用户的车险每年四千二", "用户一年车险要交4200块"),
           ("change", C, "用户的车险每年四千二", "用户今年换了保险公司，车险降到三千六了"),
           ("same_value", D, "用户的车险每年四千二", "用户的物业费一年四千二")),
    )
)  # fmt: skip
"""Development pairs (people may tune on them), grouped by source fact."""

FIRST_DEV7_GROUP = FIRST_SEVENTH_GROUP + len(SEVENTH_GROUPS)
"""Group numbers of this part start after those of the seventh held-back part."""


def dev7() -> list[tuple[int, Pair]]:
    """(group, pair) of :data:`DEV7_GROUPS`, numbered after the held-back parts."""
    return [(FIRST_DEV7_GROUP + i, p) for i, g in enumerate(DEV7_GROUPS) for p in g]
