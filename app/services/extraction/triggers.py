"""The trigger scenarios (``query``) of the offline extractor's typed units: when a unit is
worth recalling ("When suggesting food, recipes, restaurants or products that might contain
peanuts"), English and Chinese; what the cue rules (:mod:`app.services.extraction.rules`) and
the event units give a unit."""

from __future__ import annotations

import re
from datetime import date

from app.core.text import has_cjk

Q_FOOD_EN = "When suggesting food, recipes, restaurants or products that might contain {x}"
Q_FOOD_ZH = "当推荐食物、菜谱、餐厅或可能含有{x}的产品时"
# An allergen that is no food (tester E15's cats): the trigger is where it is met, not a menu.
Q_ALLERGEN_EN = (
    "When a task involves {x} (visits, travel, outdoor plans, pets, medication or products)"
)
Q_ALLERGEN_ZH = "当任务涉及{x}（拜访、出行、户外安排、宠物、药物或产品）时"
_NOT_FOOD = re.compile(
    r"\b(?:cats?|dogs?|pets?|animals?|horses?|rabbits?|hamsters?|birds?|feathers?|fur|dander|"
    r"pollen|hay|grass|dust|mites?|mold|mould|latex|nickel|bees?|wasps?|stings?|insects?|"
    r"penicillin|antibiotics?|aspirin|ibuprofen|sulfa|codeine|morphine|perfume|fragrances?)\b"
    r"|猫|狗|宠物|动物|花粉|尘螨|灰尘|霉菌|乳胶|蜜蜂|黄蜂|青霉素|抗生素|阿司匹林|布洛芬|香水",
    re.IGNORECASE,
)


def allergy_query(thing: str) -> str:
    """The trigger scenario of an allergy to ``thing``: food, or where a non-food allergen is
    met (cats, pollen, penicillin; 猫, 花粉, 青霉素)."""
    zh = has_cjk(thing)
    if _NOT_FOOD.search(thing):
        return (Q_ALLERGEN_ZH if zh else Q_ALLERGEN_EN).format(x=thing)
    return (Q_FOOD_ZH if zh else Q_FOOD_EN).format(x=thing)


Q_STYLE_EN = "When deciding how long and detailed a reply to the user should be"
Q_STYLE_ZH = "当决定给用户的回答写多长、多详细时"
Q_LIKE_EN = "When recommending or choosing {x} or something similar for the user"
Q_LIKE_ZH = "当为用户推荐或选择{x}之类的东西时"
Q_CONSTRAINT_EN = "When planning or suggesting anything that involves {x}"
Q_CONSTRAINT_ZH = "当安排或建议涉及{x}的事情时"
Q_INSTRUCTION_EN = "Whenever the assistant is about to act in a way that involves {x}"
Q_INSTRUCTION_ZH = "每当助手要做涉及{x}的事情时"
Q_HOME_EN = (
    "When a task depends on where the user lives (weather, travel, local services, time zone)"
)
Q_HOME_ZH = "当任务取决于用户住在哪里（天气、出行、本地服务、时区）时"
Q_WORK_EN = "When a task involves the user's job, employer or work schedule"
Q_WORK_ZH = "当任务涉及用户的工作、雇主或工作安排时"
Q_PET_EN = "When a task involves the user's pets (care, travel, housing, gifts)"
Q_PET_ZH = "当任务涉及用户的宠物（照顾、出行、住房、礼物）时"
Q_NAME_EN = "When addressing the user or filling in their name"
Q_NAME_ZH = "当称呼用户或填写用户姓名时"
Q_FAMILY_EN = "When a task involves the user's family (gifts, plans, schedules)"
Q_FAMILY_ZH = "当任务涉及用户的家人（礼物、安排、日程）时"
Q_PLAN_EN = "When the user asks about plans, schedule or availability around {d}{about}"
Q_PLAN_ZH = "当用户询问{d}前后的安排、行程或空闲时间{about}时"


def plan_query(day: date, entities: list[str], zh: bool) -> str:
    """The trigger scenario of a dated plan: around its day, or about what it names."""
    if zh:
        about = f"或{entities[0]}" if entities else ""
        return Q_PLAN_ZH.format(d=f"{day.month}月{day.day}日", about=about)
    about = f", or about {entities[0]}" if entities else ""
    return Q_PLAN_EN.format(d=day.strftime("%B %-d, %Y"), about=about)


def is_instruction(query: str) -> bool:
    """A rule's unit with this ``query`` tells the assistant what to do (or how to answer)."""
    heads = (Q_INSTRUCTION_EN, Q_INSTRUCTION_ZH, Q_STYLE_EN, Q_STYLE_ZH)
    return query.startswith(tuple(h.split("{")[0] for h in heads))
