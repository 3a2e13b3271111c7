"""The offline extractor's typed rules for Chinese (:mod:`app.services.extraction.rules` has
the English ones and the :class:`~app.services.extraction.rules.Rule` they share): a cue pattern
per kind of unit and how its match becomes a unit's value, trigger-scenario ``query`` and
entities, about 用户. Earlier rules are more specific."""

from __future__ import annotations

import re
from collections.abc import Callable

from app.core.vocabulary import MemoryType
from app.services.extraction import triggers as t
from app.services.extraction.rules import Rule
from app.services.extraction.statements import names_after as _names_after

_ZX = r"([^，。！？,.!?；;：:]{1,20}?)"
_ZEND = r"(?=[，。！？,.!?；;：:]|$)"


def _zobj(text: str) -> str:
    return text.strip().replace("我的", "用户的").replace("我", "用户").rstrip("了的吧啊呀哦")


def _z(
    pattern: str,
    typ: MemoryType,
    conf: float,
    build: Callable[..., tuple[str, str, list[str]]],
    listing: int = 0,
) -> Rule:
    return Rule(re.compile(pattern), typ, build, conf, listing)


def _zsubject(text: str) -> str:
    return "用户" if text == "我" else "用户的" + text.lstrip("我").lstrip("的")


_ZH_REL = r"儿子|女儿|老婆|妻子|丈夫|老公|孩子|妈妈|爸爸|母亲|父亲"
_ZH_VERB = r"(吃|喝|看|听|玩|用|穿)?"
# Other people a Chinese rule's subject may name after 我 (a name may follow: 我朋友小王).
_ZH_OTHERS = r"男朋友|女朋友|朋友|好友|闺蜜|同事|室友|老板|邻居|爸妈|父母|哥哥|姐姐|弟弟|妹妹"

ZH_RULES: list[Rule] = [
    _z(r"我(?:没有|没|并没有)(?:任何|什么)?(?:食物)?过敏|我对(?:什么|任何东西|任何食物)都不过敏",
       "fact", 0.85, lambda m: ("用户没有过敏。", t.Q_FOOD_ZH.format(x="过敏原"), [])),
    # A correction of an allergy (tester D9): 我已经不对海鲜过敏了, 我对海鲜已经不过敏了.
    _z(rf"我(?:现在)?(?:已经不再|已经不|不再)(?:对)?{_ZX}过敏|我对{_ZX}(?:已经|现在)(?:不再|不)过敏",
       "fact", 0.85,
       lambda m: (f"用户不再对{_zobj(m.group(1) or m.group(2))}过敏。",
                  t.Q_FOOD_ZH.format(x=_zobj(m.group(1) or m.group(2))),
                  [_zobj(m.group(1) or m.group(2))])),
    _z(rf"我对{_ZX}(?:并)?不过敏", "fact", 0.85,
       lambda m: (f"用户对{_zobj(m.group(1))}不过敏。",
                  t.allergy_query(_zobj(m.group(1))), [_zobj(m.group(1))])),
    # 我朋友小王对坚果过敏: the friend's allergy (tester D35: "用户对朋友小王对坚果过敏")
    _z(rf"(我的?(?:{_ZH_REL}|{_ZH_OTHERS})(?:[\u4e00-\u9fff]{{1,3}}?(?=对))?|我)(?:对)?"
       rf"([^，。！？,.!?；;：:不没对]{{1,20}}?)(?:严重|有点|轻微)?过敏",
       "constraint", 0.95,
       lambda m: (f"{_zsubject(m.group(1))}对{_zobj(m.group(2))}过敏。",
                  t.allergy_query(_zobj(m.group(2))), [_zobj(m.group(2))]), listing=2),
    _z(r"我(?:是素食者|吃素|是纯素食者)", "constraint", 0.9,
       lambda m: ("用户吃素。", t.Q_FOOD_ZH.format(x="肉"), [])),
    _z(r"(?:回答|回复|答案|解释)(?:请|要|尽量|最好|都)?(?:写得?)?(简洁|简短|简单|精炼|详细|具体|详尽)"
       r"|(简洁|简短|详细)(?:一点|一些|些)?(?:地)?(?:回答|回复)", "preference", 0.85,
       lambda m: (f"用户希望回答{m.group(1) or m.group(2)}。", t.Q_STYLE_ZH, [])),
    _z(rf"我(?:从不|从来不|绝不|决不){_ZX}{_ZEND}", "constraint", 0.85,
       lambda m: (f"用户从不{_zobj(m.group(1))}。",
                  t.Q_CONSTRAINT_ZH.format(x=_zobj(m.group(1))), [])),
    _z(rf"我(?:不能|不可以|没法)(吃|喝|碰|用|坐|开){_ZX}{_ZEND}", "constraint", 0.85,
       lambda m: (f"用户不能{m.group(1)}{_zobj(m.group(2))}。",
                  t.Q_CONSTRAINT_ZH.format(x=_zobj(m.group(2))), [_zobj(m.group(2))])),
    _z(rf"我(?:只|只能)(吃|喝){_ZX}{_ZEND}", "constraint", 0.85,
       lambda m: (f"用户只{m.group(1)}{_zobj(m.group(2))}。",
                  t.Q_CONSTRAINT_ZH.format(x="饮食"), [_zobj(m.group(2))])),
    # 我不吃素 (not vegetarian) keeps nothing out of the meals: no constraint (tester C24)
    _z(rf"(我的?(?:{_ZH_REL})|我)(?:也|从来|一直|就|可|倒是|还是|还|依然|仍然|仍)?不(吃|喝|碰)"
       rf"(?!素(?:[。！!，,]|$)){_ZX}{_ZEND}",
       "constraint", 0.85,
       lambda m: (f"{_zsubject(m.group(1))}不{m.group(2)}{_zobj(m.group(3))}。",
                  t.Q_FOOD_ZH.format(x=_zobj(m.group(3))), [_zobj(m.group(3))])),
    _z(rf"(?:请|千万|一定)?(?:不要|(?<![特分区告离级性个类识差辨])别(?!人)|勿)(?:再)?(?:给我|为我|帮我|跟我)?(推荐|安排|发|用|点|订|买|加|放)?{_ZX}{_ZEND}",
       "constraint", 0.8,
       lambda m: (f"用户要求不要{m.group(1) or ''}{_zobj(m.group(2))}。",
                  t.Q_INSTRUCTION_ZH.format(x=_zobj(m.group(2))), [])),
    # Not "你一定要去清水寺" said to another (tester E19: the speaker's constraint)
    _z(rf"(?<![你您他她])(?:我)?(?:必须|一定要|务必){_ZX}{_ZEND}", "constraint", 0.8,
       lambda m: (f"用户必须{_zobj(m.group(1))}。",
                  t.Q_CONSTRAINT_ZH.format(x=_zobj(m.group(1))), [])),
    _z(rf"我最喜欢的([^，。是]{{1,8}})是{_ZX}{_ZEND}", "preference", 0.85,
       lambda m: (f"用户最喜欢的{m.group(1)}是{_zobj(m.group(2))}。",
                  t.Q_LIKE_ZH.format(x=m.group(1)), [_zobj(m.group(2))])),
    _z(rf"我(?:很|非常|特别|真的|一点也|一点都)?(不喜欢|不爱|讨厌|不想要|受不了|反感|不太喜欢){_ZH_VERB}{_ZX}{_ZEND}",
       "preference", 0.8,
       lambda m: (f"用户{'讨厌' if m.group(1) == '讨厌' else '不喜欢'}{m.group(2) or ''}"
                  f"{_zobj(m.group(3))}。",
                  t.Q_LIKE_ZH.format(x=_zobj(m.group(3))), [_zobj(m.group(3))])),
    _z(rf"我(?:倒是|倒|也|还|就)?(?:很|非常|最|特别|比较|挺|真的|更|还是更)?(?:喜欢|爱|偏爱|偏好|钟爱){_ZH_VERB}{_ZX}{_ZEND}",
       "preference", 0.8,
       lambda m: (f"用户喜欢{m.group(1) or ''}{_zobj(m.group(2))}。",
                  t.Q_LIKE_ZH.format(x=_zobj(m.group(2))), [_zobj(m.group(2))])),
    _z(r"^(?:其实|那|那就|算了)?[，,]?(?:还是|改成|换成|换回|改回)(靠窗|靠过道|靠走道)的?(?:座位|位子|位置)?"
       r"(?:吧|好了|就行|了)?$", "preference", 0.8,
       lambda m: (f"用户现在喜欢{m.group(1)}的座位。", t.Q_LIKE_ZH.format(x=f"{m.group(1)}的座位"),
                  [f"{m.group(1)}的座位"])),
    # 以后请用中文回答我 (tester hbreak7 H25: a 30-day event): the language to answer in
    _z(r"^(?:以后|今后|从现在起|从现在开始)?[，,]?请?(?:你)?(?:以后|都|一直|总是)?用(中文|英文|英语|汉语|日语|日文|"
       r"韩语|德语|法语|西班牙语)(?:来)?(?:回答|回复|回|答复)", "constraint", 0.85,
       lambda m: (f"用户要求助手一直用{m.group(1)}回答。", "回答用户的时候", [m.group(1)])),
    _z(rf"我(?:现在|目前)?(?:住在|定居在|定居于|生活在){_ZX}{_ZEND}", "fact", 0.9,
       lambda m: (f"用户住在{_zobj(m.group(1))}。", t.Q_HOME_ZH, [_zobj(m.group(1))])),
    # …这周, 上周, 前几天, 昨天, 2023年; 搬回 (tester hbreak7 H3: 我这周搬到北京了 was an event)
    _z(rf"我(?:去年|今年|前年|上个?月|这个?月|本月|这周|本周|上周|上星期|这星期|前几天|昨天|前天|最近|已经"
       rf"|刚刚?|才|又|\d{{4}}年(?:\d{{1,2}}月)?(?:\d{{1,2}}[日号])?)*(?:从[^，。！？,]{{1,10}}?)?"
       rf"(?:搬到|搬去|搬来|搬回到?)了?"
       rf"{_ZX}{_ZEND}", "fact", 0.9,
       lambda m: (f"用户搬到了{_zobj(m.group(1))}，现在住在那里。", t.Q_HOME_ZH,
                  [_zobj(m.group(1))])),
    _z(r"(?:^|我)(?:现在|目前)?在([^，。！？,.!?]{1,15}?)(?:工作|上班|任职|(做|当)([^，。！？,.!?]{0,6}"
       r"(?:经理|工程师|程序员|设计师|老师|教师|医生|护士|律师|会计|研究员|顾问|分析师|厨师|销售|运营)))",
       "fact", 0.85,
       lambda m: (f"用户在{_zobj(m.group(1))}{m.group(2) + m.group(3) if m.group(2) else '工作'}。",
                  t.Q_WORK_ZH, [_zobj(m.group(1))])),
    _z(r"我(?:是|当)(?:一名|一个|一位)?([^，。！？]{0,8}(?:工程师|程序员|设计师|老师|教师|医生|护士|"
       r"学生|经理|律师|会计|研究员|作家|顾问|分析师|厨师|创业者))", "fact", 0.8,
       lambda m: (f"用户是{m.group(1)}。", t.Q_WORK_ZH, [])),
    _z(r"(?:我叫|我的名字是)([A-Za-zÀ-ÿ][\w'’\u2024-]*(?:\s+[A-ZÀ-Þ][\w'’\u2024-]*){0,2}"
       r"|[^，。！？,.!?\s]{1,10})", "fact", 0.9,  # 我叫José Ángel (tester hbreak7 H23)
       lambda m: (f"用户叫{m.group(1)}。", t.Q_NAME_ZH, [m.group(1)])),
    _z(r"我有(\d+|[一两二三四五六])个(孩子|儿子|女儿|兄弟|姐妹|哥哥|姐姐|弟弟|妹妹)"
       r"(?:[，,]?(?:名字)?叫([^，。！？,.!?\s]{1,6})|[：:]([^，。！？,.!?\s]{1,20}))?",
       "fact", 0.85,
       lambda m: (f"用户有{m.group(1)}个{m.group(2)}{_names_after(m.group(3), m.group(4))}。",
                  t.Q_FAMILY_ZH, [n for n in (m.group(3),) if n])),
    _z(r"我(?:还|也)?(?:有|养了?)((?:一|两|[三四五六]|\d+)(?:只|条|个)叫([^，。！？,.!?\s的]{1,6})的"
       r"(?:狗|猫|兔子|鹦鹉|仓鼠|狗狗|猫咪))", "fact", 0.85,
       lambda m: (f"用户有{m.group(1)}。", t.Q_FAMILY_ZH, [m.group(2)])),
    _z(rf"我的?({_ZH_REL}|男朋友|女朋友|未婚夫|未婚妻|哥哥|姐姐|弟弟|妹妹)叫"
       r"([^，。！？,.!?\s]{1,6})", "fact", 0.85,
       lambda m: (f"用户的{m.group(1)}叫{m.group(2)}。", t.Q_FAMILY_ZH, [m.group(2)])),
]  # fmt: skip
