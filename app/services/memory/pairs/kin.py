"""Kin and group words of the holder readings (:mod:`.referents`, :mod:`.holders`,
:mod:`.persons_zh`), each with one English name: mum → mother, 老公 → husband, 爸妈 → parent.
A leaf module: the readings import it, it imports none of them."""

from __future__ import annotations

KIN_EN = {
    "mom": "mother", "mum": "mother", "mommy": "mother", "mummy": "mother", "ma": "mother",
    "dad": "father", "daddy": "father", "papa": "father", "hubby": "husband", "kid": "child",
    "kids": "child", "children": "child", "parents": "parent", "grandma": "grandmother",
    "granny": "grandmother", "grandpa": "grandfather", "gf": "girlfriend", "bf": "boyfriend",
    "coworker": "colleague", "co-worker": "colleague", "fiancee": "fiance", "fiancée": "fiance",
    "fiancé": "fiance"}  # fmt: skip
KIN_ZH = {
    "丈夫": "husband", "老公": "husband", "先生": "husband", "妻子": "wife", "老婆": "wife",
    "太太": "wife", "爱人": "spouse", "儿子": "son", "女儿": "daughter", "孩子": "child",
    "小孩": "child", "宝宝": "child", "父母": "parent", "母亲": "mother", "妈妈": "mother",
    "妈": "mother", "父亲": "father", "爸爸": "father", "爸": "father", "哥哥": "brother",
    "弟弟": "brother", "兄弟": "brother", "姐姐": "sister", "妹妹": "sister", "姐妹": "sister",
    "爷爷": "grandfather", "外公": "grandfather", "祖父": "grandfather", "奶奶": "grandmother",
    "外婆": "grandmother", "祖母": "grandmother", "孙子": "grandson", "孙女": "granddaughter",
    "叔叔": "uncle", "舅舅": "uncle", "伯伯": "uncle", "阿姨": "aunt", "姑姑": "aunt",
    "婆婆": "mother-in-law", "岳母": "mother-in-law", "公公": "father-in-law",
    "岳父": "father-in-law", "朋友": "friend", "好友": "friend", "闺蜜": "friend",
    "男朋友": "boyfriend", "男友": "boyfriend", "女朋友": "girlfriend", "女友": "girlfriend",
    "未婚夫": "fiance", "未婚妻": "fiance", "同事": "colleague", "老板": "boss",
    "上司": "boss", "经理": "manager", "室友": "roommate", "邻居": "neighbour",
    "同学": "classmate", "老师": "teacher", "医生": "doctor", "狗": "dog", "猫": "cat",
    "宠物": "pet",
}  # fmt: skip
GROUP_ZH = {
    "爸妈": "parent", "父母": "parent", "家人": "family", "家里人": "family", "全家": "family",
    "亲戚": "family", "公婆": "parent-in-law", "岳父母": "parent-in-law",
    "爷爷奶奶": "grandparent", "外公外婆": "grandparent", "兄弟姐妹": "sibling",
}  # fmt: skip
