#!/usr/bin/env python3
"""Generate the legacy-encoding pages in corpus/encodings/.

Source text lives here as UTF-8; each page is encoded with the named codec when
written, then decoded again and compared, so a character the codec cannot
represent fails loudly instead of turning into '?'. Also writes
encodings/MANIFEST.json describing each file (label, codec, title, and a probe
phrase that a correct decoder must produce). Output is deterministic:

    python3 corpus/tools/make_encodings.py            # write the files
    python3 corpus/tools/make_encodings.py --check    # compare with the files on disk
"""
import json
import sys
from pathlib import Path

DIR = Path(__file__).resolve().parent.parent / "encodings"


def page(lang, head_meta, title, body, extra_head=""):
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{lang}">\n<head>\n{head_meta}\n{extra_head}'
        f"<title>{title}</title>\n</head>\n<body>\n{body}</body>\n</html>\n"
    )


PAGES = []


def add(name, codec, label, lang, meta, title, body, probe, bom=b"", extra_head="", note=""):
    PAGES.append(dict(name=name, codec=codec, label=label, lang=lang, meta=meta, title=title,
                      body=body, probe=probe, bom=bom, extra_head=extra_head, note=note))


# --- windows-1252 ---------------------------------------------------------
add(
    "windows-1252.html", "cp1252", "windows-1252", "en",
    '<meta charset="windows-1252">',
    "Café Lumière – Spring menu",
    """<header><a href="/">Café Lumière</a> · <a href="/menu">Menu</a> · <a href="/book">Book a table</a></header>
<main>
<h1>Spring menu — “fresh from the market”</h1>
<p>Our chef’s favourites this season, served from 12:00 until 22:00. Prices include VAT; a 10 % service charge is added for groups of eight or more.</p>
<ul>
<li>Crème brûlée with rhubarb compote — €7.50</li>
<li>Soupe à l’oignon gratinée — €9.00</li>
<li>Salade niçoise, œuf mollet — €13.50</li>
<li>Moules marinière, frites maison — €18.00</li>
<li>Café au lait or thé glacé — €3.20</li>
</ul>
<p>Allergies? Ask for our “allergen card”… we’re happy to help. Gift vouchers: €25, €50 or €100.</p>
<p><small>© 2024 Café Lumière™ · Rue Sébastien-Érard 14 · Tel. +33 1 00 00 00 00</small></p>
</main>
""",
    "Crème brûlée with rhubarb compote — €7.50",
)

# --- iso-8859-1 label that is really windows-1252 (WHATWG maps the label) ---
add(
    "latin1-label-cp1252-bytes.html", "cp1252", "iso-8859-1", "en",
    '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">',
    "Price list – labelled ISO-8859-1",
    """<h1>Price list</h1>
<p>This page is labelled ISO-8859-1 but, like many real pages, contains bytes 0x80–0x9F. Browsers (and the WHATWG Encoding Standard) treat the label as windows-1252, so these must decode as “smart quotes”, an ellipsis… and a euro sign: €49.</p>
<p>Plain Latin-1 range: naïve façade, Ångström, ½ kg, ¿qué?, ß.</p>
""",
    "“smart quotes”, an ellipsis… and a euro sign: €49",
    note="label iso-8859-1 must be treated as windows-1252 per WHATWG",
)

# --- Shift_JIS ------------------------------------------------------------
add(
    "shift_jis.html", "shift_jis", "Shift_JIS", "ja",
    '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">',
    "ソフトウェア更新のお知らせ",
    """<div id="header"><a href="/">サポートセンター</a> ｜ <a href="/faq/">よくある質問</a></div>
<h1>ソフトウェア更新のお知らせ</h1>
<p>いつもご利用いただきありがとうございます。表示速度の改善と不具合の修正を含むバージョン 3.2 を公開しました。</p>
<h2>主な変更点</h2>
<ul>
<li>一覧表示の読み込みを約二倍に高速化しました。</li>
<li>予約画面で日付が正しく表示されない問題を修正しました。</li>
<li>「設定」メニューに表示言語の切り替えを追加しました。</li>
</ul>
<p>更新は自動で行われます。ご不明な点はサポート窓口（平日 9時から18時）までお問い合わせください。</p>
<p>価格：月額 ￥980（税込）</p>
""",
    "表示速度の改善と不具合の修正",
    note="contains 0x5C trail bytes (表, ソ, 予) that naive ASCII handling corrupts",
)

# --- GB18030 --------------------------------------------------------------
add(
    "gb18030.html", "gb18030", "gb18030", "zh-CN",
    '<meta charset="gb18030">',
    "城市图书馆开放时间调整通知",
    """<div class="nav"><a href="/">首页</a> | <a href="/news/">新闻</a> | <a href="/services/">读者服务</a></div>
<h1>城市图书馆开放时间调整通知</h1>
<p>为更好地服务读者，自七月一日起，本馆周末开放时间延长至晚上九点。</p>
<ol>
<li>周一至周五：上午九点至晚上八点</li>
<li>周六、周日：上午九点至晚上九点</li>
<li>法定节假日另行通知</li>
</ol>
<p>少儿阅览室将同步延长开放。特藏文献需提前预约，罕见字示例：㐀、𠀋。</p>
<p>欢迎关注我们的公众号 🙂 获取最新消息。</p>
""",
    "本馆周末开放时间延长至晚上九点",
    note="includes four-byte GB18030 sequences (CJK Ext-A/B and an emoji)",
)

# --- UTF-8 with BOM, no meta ------------------------------------------------
add(
    "utf8-bom-no-meta.html", "utf-8", "(BOM only)", "de",
    "",
    "Übersicht: Größen und Maße",
    """<h1>Übersicht: Größen und Maße</h1>
<p>Diese Seite hat kein <code>&lt;meta charset&gt;</code>; nur die Byte-Order-Markierung am Anfang verrät UTF-8.</p>
<p>Straße, Fußgängerzone, Äpfel, Öl, Übermaß — und dazu Ελληνικά, Ελλάδα, ≤ ≥ ≠ ∞, „Anführungszeichen“ und ein Emoji: 🚲.</p>
""",
    "Straße, Fußgängerzone, Äpfel, Öl, Übermaß",
    bom=b"\xef\xbb\xbf",
)

# --- UTF-16LE with BOM ------------------------------------------------------
add(
    "utf16le-bom.html", "utf-16-le", "(UTF-16LE BOM)", "en",
    "",
    "Exported from a word processor",
    """<h1>Exported from a word processor</h1>
<p>Some desktop tools save HTML as UTF-16 with a byte-order mark. Every ASCII character is followed by a NUL byte, so byte-oriented code that looks for “&lt;meta” finds nothing.</p>
<p>Non-ASCII check: naïve, Żółć, 漢字, ☃.</p>
""",
    "Non-ASCII check: naïve, Żółć, 漢字, ☃.",
    bom=b"\xff\xfe",
)

# --- charset only in a late http-equiv meta, within the first 1024 bytes -----
LATE_COMMENT_BASE = (
    "<!--\n  Generated by SiteBuilder Pro 4.2 (build 2211). Do not edit by hand.\n"
    "  Template: news-article.tpl  Region: cz  Cache: 3600s  Node: web-07\n"
    "  Revision history and licence text follow; the prescan must skip all of it.\n"
)
add(
    "late-meta-charset.html", "cp1250", "windows-1250", "cs",
    "@LATE@",
    "Oprava mostu přes řeku Ohři začne v září",
    """<div class="menu"><a href="/">Úvod</a> | <a href="/zpravy/">Zprávy</a> | <a href="/kultura/">Kultura</a></div>
<h1>Oprava mostu přes řeku Ohři začne v září</h1>
<p>Řidiči musí počítat s objížďkou dlouhou přibližně šest kilometrů. Práce potrvají do konce příštího roku.</p>
<p>„Most je ve špatném stavu a oprava už nesnese odklad,“ řekl náměstek hejtmana. Chodci a cyklisté budou moci přecházet po provizorní lávce.</p>
<p>Příliš žluťoučký kůň úpěl ďábelské ódy.</p>
""",
    "Příliš žluťoučký kůň úpěl ďábelské ódy.",
    note="the only charset declaration is an http-equiv meta preceded by a long comment; it ends just before byte 1024",
)

# --- ISO-8859-5 -------------------------------------------------------------
add(
    "iso-8859-5.html", "iso8859_5", "iso-8859-5", "ru",
    '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-5">',
    "Расписание пригородных поездов",
    """<h1>Расписание пригородных поездов</h1>
<p>С понедельника изменяется расписание электричек на северном направлении. Первый поезд будет отправляться в 5:12, последний - в 23:40.</p>
<table border="1">
<tr><th>Станция</th><th>Отправление</th></tr>
<tr><td>Вокзал</td><td>5:12</td></tr>
<tr><td>Озёрная</td><td>5:31</td></tr>
<tr><td>Берёзовка</td><td>5:48</td></tr>
</table>
<p>Съешь же ещё этих мягких французских булок да выпей чаю.</p>
""",
    "Съешь же ещё этих мягких французских булок да выпей чаю.",
)

# --- KOI8-R -----------------------------------------------------------------
add(
    "koi8-r.html", "koi8_r", "koi8-r", "ru",
    '<meta charset="koi8-r">',
    "Объявление для жильцов",
    """<h1>Объявление для жильцов</h1>
<p>Уважаемые жильцы! В среду с 10:00 до 16:00 будет отключена горячая вода в связи с плановой проверкой трубопровода.</p>
<p>Просим заранее набрать воду. Вопросы можно задать по телефону управляющей компании.</p>
<p>В чащах юга жил бы цитрус? Да, но фальшивый экземпляр!</p>
""",
    "В чащах юга жил бы цитрус? Да, но фальшивый экземпляр!",
)

# --- EUC-KR -----------------------------------------------------------------
add(
    "euc-kr.html", "euc_kr", "euc-kr", "ko",
    '<meta http-equiv="Content-Type" content="text/html; charset=euc-kr">',
    "도서관 이용 안내",
    """<h1>도서관 이용 안내</h1>
<p>우리 도서관은 화요일부터 일요일까지 운영합니다. 월요일과 공휴일은 휴관입니다.</p>
<ul>
<li>자료실: 오전 9시 ~ 오후 6시</li>
<li>열람실: 오전 7시 ~ 오후 10시</li>
<li>대출 권수: 1인 5권, 기간 14일</li>
</ul>
<p>다람쥐 헌 쳇바퀴에 타고파.</p>
""",
    "다람쥐 헌 쳇바퀴에 타고파.",
)

# --- Big5 -------------------------------------------------------------------
add(
    "big5.html", "big5", "big5", "zh-TW",
    '<meta charset="big5">',
    "颱風停班停課資訊",
    """<h1>颱風停班停課資訊</h1>
<p>受颱風影響，本市明天停止上班上課。請民眾注意安全，避免前往海邊及山區。</p>
<p>公車與捷運將於下午四點後依狀況調整班次，詳情請見交通局公告。</p>
<p>許功蓋這些字的第二個位元組是反斜線，容易被錯誤處理。</p>
""",
    "本市明天停止上班上課",
    note="許, 功, 蓋 have 0x5C (backslash) as their second byte",
)


def late_meta_head(body_len_hint: str) -> str:
    """Pad the comment so the meta element ends a few bytes before offset 1024."""
    meta = '<meta http-equiv="Content-Type" content="text/html; charset=windows-1250">'
    prefix = '<!DOCTYPE html>\n<html lang="cs">\n<head>\n'
    filler_line = "  Změna 2024-06-0X: úprava šablony, nic podstatného.\n"
    comment = LATE_COMMENT_BASE
    # Bytes are what matter; count them in the target encoding.
    def size(c: str) -> int:
        return len((prefix + c + "-->\n" + meta).encode("cp1250"))
    i = 0
    while size(comment + filler_line.replace("X", str(i % 10))) <= 1000:
        comment += filler_line.replace("X", str(i % 10))
        i += 1
    pad = 1018 - size(comment)
    comment += " " * max(pad, 0) + "\n"
    end = size(comment)
    assert 1000 < end <= 1024, end
    return comment + "-->\n" + meta


def render(p):
    meta = p["meta"]
    if meta == "@LATE@":
        meta = late_meta_head(p["body"])
        text = (
            f'<!DOCTYPE html>\n<html lang="{p["lang"]}">\n<head>\n{meta}\n'
            f"<title>{p['title']}</title>\n</head>\n<body>\n{p['body']}</body>\n</html>\n"
        )
    else:
        text = page(p["lang"], meta, p["title"], p["body"], p["extra_head"])
    return text


def main():
    check = "--check" in sys.argv[1:]
    ok = True
    manifest = []
    outputs = {}
    for p in PAGES:
        text = render(p)
        data = p["bom"] + text.encode(p["codec"])  # strict: unencodable text raises
        back = data[len(p["bom"]):].decode(p["codec"])
        assert back == text, p["name"]
        assert p["probe"] in back and p["probe"] in text, p["name"]
        if p["name"] == "late-meta-charset.html":
            end = data.index(b"charset=windows-1250") + len(b'charset=windows-1250">')
            assert 1000 < end <= 1024, end
            assert data.count(b"charset") == 1
        outputs[p["name"]] = data
        manifest.append({
            "file": p["name"],
            "declared": p["label"],
            "python_codec": p["codec"],
            "bom": p["bom"].hex() or None,
            "title": p["title"],
            "probe": p["probe"],
            "note": p["note"] or None,
        })
    outputs["MANIFEST.json"] = (json.dumps(manifest, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    for name, data in outputs.items():
        path = DIR / name
        if check:
            same = path.exists() and path.read_bytes() == data
            ok &= same
            print(f"{'ok  ' if same else 'DIFF'} encodings/{name}")
        else:
            path.write_bytes(data)
            print(f"wrote encodings/{name} ({len(data)} bytes)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
