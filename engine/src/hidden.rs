//! Hidden content decided from an element's inline `style`: `display: none`,
//! `visibility: hidden`/`collapse`, or parked off screen. Called once per element while
//! parsing ([`crate::dom`], and [`crate::depth`] for elements past the nesting cap); what is
//! hidden never reaches the Markdown and never wins content selection.

/// Whether an inline style declares `display: none` or `visibility: hidden` (or `collapse`),
/// or parks the element off screen (`position: absolute` or `fixed` with `top`, `left`,
/// `right` or `bottom` at -1000px or beyond, -100em/rem or beyond): read declaration by
/// declaration with comments removed, so that `content: 'display:none'` or a custom
/// property does not count and `display:/**/none` does. Off-screen text is what a reader
/// never sees (pages park Facebook's SDK root at `top: -10000px`, skip links at `left:
/// -9999px`), and a way to show an agent what a human would not.
pub(crate) fn style_hides(style: &str) -> bool {
    // A hiding declaration's property is `display` or `visibility` in some ASCII case, both
    // ending in `y`; an off-screen offset starts with `-` and a digit, or `-` and a comment
    // (removing comments only deletes bytes). A style with neither cannot hide: memchr
    // passes skip the declaration parse for most style attributes (`width: 50%`, `color:
    // red`, `margin-top: 4px`, …).
    let bytes = style.as_bytes();
    let minus = || {
        memchr::memchr_iter(b'-', bytes).any(|i| {
            bytes
                .get(i + 1)
                .is_some_and(|b| b.is_ascii_digit() || *b == b'/')
        })
    };
    if memchr::memchr2(b'y', b'Y', bytes).is_none() && !minus() {
        return false;
    }
    style_hides_parsed(style)
}

/// [`style_hides`] without the byte pre-check: comments removed, then declarations read.
fn style_hides_parsed(style: &str) -> bool {
    if !style.contains("/*") {
        // Nearly every style attribute: read in place, no copy.
        return declarations_hide(style);
    }
    let mut clean = String::with_capacity(style.len());
    let mut rest = style;
    while let Some(start) = rest.find("/*") {
        clean.push_str(&rest[..start]);
        rest = rest[start + 2..]
            .find("*/")
            .map_or("", |end| &rest[start + 2 + end + 2..]);
    }
    clean.push_str(rest);
    declarations_hide(&clean)
}

/// [`style_hides`] for CSS without comments. Property and value compare ignoring ASCII case,
/// after trailing `!important`s.
fn declarations_hide(css: &str) -> bool {
    let (mut positioned, mut far_off) = (false, false);
    for decl in css.split(';') {
        let Some((prop, value)) = decl.split_once(':') else {
            continue;
        };
        let prop = prop.trim();
        let mut value = value.trim();
        while let Some(v) = strip_suffix_ignore_case(value, "!important") {
            value = v;
        }
        let value = value.trim();
        let is = |name: &str| prop.eq_ignore_ascii_case(name);
        if (is("display") && value.eq_ignore_ascii_case("none"))
            || (is("visibility")
                && (value.eq_ignore_ascii_case("hidden") || value.eq_ignore_ascii_case("collapse")))
        {
            return true;
        }
        if is("position") {
            positioned =
                value.eq_ignore_ascii_case("absolute") || value.eq_ignore_ascii_case("fixed");
        } else if is("top") || is("left") || is("right") || is("bottom") {
            far_off |= off_screen_offset(value);
        }
    }
    positioned && far_off
}

/// A negative offset of at least 1000px (or 100em/rem): far outside any viewport.
fn off_screen_offset(value: &str) -> bool {
    let Some(rest) = value.strip_prefix('-') else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let (number, mut unit) = rest.split_at(digits);
    if let Some(frac) = unit.strip_prefix('.') {
        unit = frac.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    let n = number.bytes().fold(0u64, |n, d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    });
    if unit.eq_ignore_ascii_case("px") {
        n >= 1000
    } else if unit.eq_ignore_ascii_case("em") || unit.eq_ignore_ascii_case("rem") {
        n >= 100
    } else {
        false
    }
}

fn strip_suffix_ignore_case<'a>(s: &'a str, suffix: &str) -> Option<&'a str> {
    let cut = s.len().checked_sub(suffix.len())?;
    let (head, tail) = (s.get(..cut)?, s.get(cut..)?);
    tail.eq_ignore_ascii_case(suffix).then_some(head)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_styles_that_hide() {
        for style in [
            "display:none",
            "DISPLAY : None ;",
            "color:red; display: none !important",
            "display:none!IMPORTANT!important",
            "display:/* x */none",
            "/* a */visibility:hidden",
            "visibility: Collapse",
            "margin:0;;visibility:hidden;",
            "position: absolute; top: -10000px; height: 0px; width: 0px;",
            "position:absolute;left:-9999px",
            "left: -1000.5PX !important; POSITION: Fixed",
            "position:absolute; bottom:-9999px; left:-9999px;",
            "position:absolute;right:-/**/120em",
            "position:absolute;top:-99999999999999999999999px",
        ] {
            assert!(style_hides(style), "{style:?} hides");
        }
        for style in [
            "",
            "display:block",
            "display:none-ish",
            "content: 'display:none'",
            "--display:none",
            "/* display:none */",
            "display/**/:/**/nonee",
            "visibility:visible",
            "display:nöne",
            "displayé:none",
            "!important",
            // Off screen needs both the position and a far negative offset.
            "left:-10000px",
            "position:relative;left:-10000px",
            "position:absolute;left:-999px",
            "position:absolute;margin-left:-10000px",
            "position:absolute;top:-50%",
            "position:absolute;left:- 10000px",
            "position:absolute;left:-10000",
            "position:absolute;left:-10000px;position:static",
        ] {
            assert!(!style_hides(style), "{style:?} does not hide");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20000))]
        /// The byte pre-checks in [`style_hides`] never change the answer of the full parse.
        #[test]
        fn style_precheck_matches_the_parse(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "display", "DISPLAY", "DisPlaY", "displa", "visibility", "VISIBILITY",
                    "visibilit", "none", "NONE", "nOnE", "hidden", "HIDDEN", "collapse",
                    "Collapse", ":", ";", " ", "\t", "\n", "\u{a0}", "\u{3000}", "/*", "*/",
                    "/", "*", "!important", "!IMPORTANT", "y", "Y", "e", "\\79", "\\59",
                    "displa\\79", "'", "\"", "--", "é", "width:50%", "color:red", "-",
                    "position", "absolute", "top", "left", "1000px", "9", "px", "em",
                ]),
                0..12,
            )
        ) {
            let style = pieces.concat();
            proptest::prop_assert_eq!(style_hides(&style), style_hides_parsed(&style), "{:?}", style);
        }
    }

    #[test]
    fn style_precheck_keeps_every_hiding_spelling() {
        for style in [
            "display:none",
            "DISPLAY:NONE",
            "dIsPlAy : nOnE !ImPoRtAnT",
            "\u{a0}display\u{3000}:\tnone\n",
            "displa/**/y:none",
            "visibilit/* c */Y:hidden",
            "width:50%;visibility:collapse",
        ] {
            assert!(style_hides_parsed(style), "{style:?}");
            assert!(style_hides(style), "{style:?}");
        }
        for style in [
            "width:50%",
            "color:red; margin:0",
            "/* none */",
            "displa\\79:none",
        ] {
            assert!(!style_hides(style), "{style:?}");
            assert_eq!(style_hides(style), style_hides_parsed(style), "{style:?}");
        }
    }
}
