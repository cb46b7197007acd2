//! Presentation MathML written as TeX, for formulas that carry no TeX source of their own:
//! MathJax's assistive MathML (what screen readers get beside the drawn glyphs), MathML
//! written by hand or by converters (pandoc, MDN, Firefox-era docs). Without this a formula
//! reads as its characters run together: `<msup><mi>y</mi><mn>3</mn></msup>` as "y3".
//!
//! Bottom-up over the formula's elements in reverse document order (every node comes after
//! its descendants there), so a deep formula costs no stack. Anything this does not know or
//! that is malformed (a script element with the wrong number of children) gives `None`, and
//! the caller writes the formula's text as before.
use std::collections::HashMap;

use crate::dom::{Dom, Kind, NodeId, Tag};

/// Formulas larger than this many nodes are left to their text (a page of MathML tables is
/// no formula an agent reads as TeX, and the map below stays small).
const MAX_NODES: usize = 4096;

/// The TeX of the `<math>` element `math`, or `None` (see the module comment).
pub fn to_tex(dom: &Dom, math: NodeId) -> Option<String> {
    let nodes: Vec<NodeId> = dom.descendants(math).take(MAX_NODES + 1).collect();
    if nodes.len() > MAX_NODES {
        return None;
    }
    let mut done: HashMap<NodeId, String> = HashMap::with_capacity(nodes.len());
    for &n in nodes.iter().rev() {
        if dom.tag(n).is_some() {
            let tex = element(dom, n, &mut done)?;
            done.insert(n, tex);
        }
    }
    let tex = join(children(dom, math, &mut done));
    let tex = tex.trim();
    (!tex.is_empty()).then(|| tex.to_string())
}

/// The TeX of the element children of `id`, in order (already in `done`: they follow `id`
/// in document order). Text directly inside a layout element is white space between tags.
fn children(dom: &Dom, id: NodeId, done: &mut HashMap<NodeId, String>) -> Vec<String> {
    dom.children(id)
        .filter(|&c| dom.tag(c).is_some())
        .map(|c| done.remove(&c).unwrap_or_default())
        .collect()
}

/// The TeX of one element whose element children are done.
fn element(dom: &Dom, id: NodeId, done: &mut HashMap<NodeId, String>) -> Option<String> {
    let name = match dom.tag(id) {
        Some(Tag::Foreign | Tag::Math) => dom.local_name(id),
        // HTML inside `<mtext>` or `<annotation-xml>`: its text is taken by the token.
        Some(_) => return Some(String::new()),
        None => return Some(String::new()),
    };
    Some(match name {
        "mi" => identifier(&token_text(dom, id)),
        "mn" => symbols(&token_text(dom, id)),
        "mo" => operator(&token_text(dom, id)),
        "mtext" => text(&token_text(dom, id)),
        "ms" => text(&format!("\"{}\"", token_text(dom, id))),
        "mspace" => "\\;".to_string(),
        "mrow" | "mstyle" | "mpadded" | "merror" | "menclose" | "mtd" | "math" | "mfenced"
        | "mmultiscripts" => {
            let parts = children(dom, id, done);
            if name == "mfenced" {
                format!("({})", parts.join(", "))
            } else {
                join(parts)
            }
        }
        // Only the first child is shown; the rest are alternatives or annotations.
        "semantics" | "maction" => children(dom, id, done)
            .into_iter()
            .next()
            .unwrap_or_default(),
        "mphantom" | "annotation" | "annotation-xml" | "none" | "mprescripts" | "mglyph"
        | "malignmark" | "maligngroup" => {
            children(dom, id, done);
            String::new()
        }
        "msup" | "msub" | "mfrac" | "mroot" | "mover" | "munder" => {
            let [a, b] = <[String; 2]>::try_from(children(dom, id, done)).ok()?;
            match name {
                "msup" => format!("{}^{}", base(&a), group(&b)),
                "msub" => format!("{}_{}", base(&a), group(&b)),
                "mfrac" => format!("\\frac{{{a}}}{{{b}}}"),
                "mroot" => format!("\\sqrt[{b}]{{{a}}}"),
                "mover" => over(&a, &b),
                _ => under(&a, &b),
            }
        }
        "msubsup" | "munderover" => {
            let [a, b, c] = <[String; 3]>::try_from(children(dom, id, done)).ok()?;
            if name == "msubsup" || is_big_operator(&a) {
                format!("{}_{}^{}", base(&a), group(&b), group(&c))
            } else {
                format!("\\overset{{{c}}}{{\\underset{{{b}}}{{{a}}}}}")
            }
        }
        "msqrt" => format!("\\sqrt{{{}}}", join(children(dom, id, done))),
        "mtable" => {
            let rows = children(dom, id, done);
            format!("\\begin{{matrix}} {} \\end{{matrix}}", rows.join(" \\\\ "))
        }
        "mtr" => children(dom, id, done).join(" & "),
        // A labelled row's first cell is its equation number.
        "mlabeledtr" => children(dom, id, done)
            .into_iter()
            .skip(1)
            .collect::<Vec<_>>()
            .join(" & "),
        _ => return None,
    })
}

/// The text of a token element (`mi`, `mn`, `mo`, `mtext`), white space collapsed.
fn token_text(dom: &Dom, id: NodeId) -> String {
    let mut s = String::new();
    for n in dom.descendants(id) {
        if let Kind::Text { .. } = dom.node(n).kind {
            s.push_str(dom.text_of(n));
        }
    }
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Pieces of a row, a space only where a command or a script would run into the letters
/// after it (`\alpha x`, `x^n a`; `2xy` as it is).
fn join(parts: Vec<String>) -> String {
    let mut out = String::new();
    for p in parts.iter().filter(|p| !p.is_empty()) {
        if (ends_in_command(&out) || ends_in_script(&out))
            && p.starts_with(|c: char| c.is_ascii_alphabetic())
        {
            out.push(' ');
        }
        out.push_str(p);
    }
    out
}

/// A script's argument: braced unless it is one character or one command.
fn group(tex: &str) -> String {
    if is_atom(tex) {
        tex.to_string()
    } else {
        format!("{{{tex}}}")
    }
}

/// A script's base: as it is when one symbol (or already a group), else braced.
fn base(tex: &str) -> String {
    if is_atom(tex) || is_big_operator(tex) {
        tex.to_string()
    } else {
        format!("{{{tex}}}")
    }
}

fn is_atom(tex: &str) -> bool {
    let mut chars = tex.chars();
    match chars.next() {
        None => false,
        Some('\\') => {
            let rest = chars.as_str();
            !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphabetic())
        }
        Some(_) => chars.next().is_none(),
    }
}

/// Operators that take their limits below and above (`\sum_{i=1}^{n}`).
fn is_big_operator(tex: &str) -> bool {
    matches!(
        tex,
        "\\sum"
            | "\\prod"
            | "\\coprod"
            | "\\int"
            | "\\oint"
            | "\\bigcup"
            | "\\bigcap"
            | "\\bigoplus"
            | "\\bigotimes"
            | "\\lim"
            | "\\max"
            | "\\min"
            | "\\sup"
            | "\\inf"
            | "\\limsup"
            | "\\liminf"
            | "\\det"
    )
}

fn over(a: &str, b: &str) -> String {
    let accent = match b {
        "^" | "\\hat{}" | "ˆ" | "\u{302}" => Some("\\hat"),
        "\\overline{}" | "¯" | "‾" | "_" | "\\_" | "―" | "\u{305}" | "-" | "−" => {
            Some("\\overline")
        }
        "\\to" | "\\rightarrow" | "\u{20d7}" => Some("\\vec"),
        "\\sim" | "~" | "˜" | "\u{303}" => Some("\\tilde"),
        "˙" | "\\cdot" | "." | "\u{307}" => Some("\\dot"),
        "¨" | ".." | "\u{308}" => Some("\\ddot"),
        "⏞" => Some("\\overbrace"),
        _ => None,
    };
    match accent {
        Some(cmd) => format!("{cmd}{{{a}}}"),
        None if is_big_operator(a) => format!("{a}^{}", group(b)),
        None => format!("\\overset{{{b}}}{{{a}}}"),
    }
}

fn under(a: &str, b: &str) -> String {
    match b {
        "\\_" | "_" | "¯" | "‾" | "\u{332}" => format!("\\underline{{{a}}}"),
        "⏟" => format!("\\underbrace{{{a}}}"),
        _ if is_big_operator(a) => format!("{a}_{}", group(b)),
        _ => format!("\\underset{{{b}}}{{{a}}}"),
    }
}

/// Function names TeX sets upright as commands of their own.
const FUNCTIONS: &[&str] = &[
    "sin", "cos", "tan", "cot", "sec", "csc", "sinh", "cosh", "tanh", "coth", "arcsin", "arccos",
    "arctan", "log", "ln", "lg", "exp", "lim", "max", "min", "sup", "inf", "det", "gcd", "deg",
    "dim", "ker", "arg", "hom", "Pr", "limsup", "liminf",
];

/// An identifier: one letter as it is, a function name as its command, any other name set
/// upright.
fn identifier(s: &str) -> String {
    if s.chars().count() > 1 && s.chars().all(|c| c.is_ascii_alphabetic()) {
        if FUNCTIONS.contains(&s) {
            return format!("\\{s}");
        }
        return format!("\\mathrm{{{s}}}");
    }
    symbols(s)
}

/// An operator: its symbols, or a named one (`lim`, `mod`) as an upright name.
fn operator(s: &str) -> String {
    if s.chars().count() > 1 && s.chars().all(|c| c.is_ascii_alphabetic()) {
        return identifier(s);
    }
    symbols(s)
}

/// Characters as TeX: specials escaped, symbols spelled as their commands (what a TeX author
/// writes, and what KaTeX and Wikipedia pages give through their annotation), invisible
/// operators (function application, invisible times) dropped.
fn symbols(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let cmd = match c {
            '\u{2061}'..='\u{2064}' | '\u{200b}' => continue,
            '#' | '%' | '&' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
                continue;
            }
            '\\' => "\\backslash",
            '~' => "\\sim",
            '^' => "\\hat{}",
            '\u{2212}' => "-",
            '\u{2032}' => "'",
            '\u{2033}' => "''",
            _ => match command(c) {
                Some(cmd) => cmd,
                None => {
                    // A letter right after a command would lengthen its name.
                    if c.is_ascii_alphabetic() && ends_in_command(&out) {
                        out.push(' ');
                    }
                    out.push(c);
                    continue;
                }
            },
        };
        out.push_str(cmd);
    }
    out
}

/// Words in a formula: `\text{…}` with TeX's specials escaped.
fn text(s: &str) -> String {
    if s.is_empty() {
        return String::new();
    }
    let mut out = String::with_capacity(s.len() + 7);
    out.push_str("\\text{");
    for c in s.chars() {
        match c {
            '#' | '%' | '&' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '\\' => out.push_str("\\textbackslash{}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            _ => out.push(c),
        }
    }
    out.push('}');
    out
}

/// Whether `s` ends in a one-letter script (`x^n`): a letter after it reads as the base's.
fn ends_in_script(s: &str) -> bool {
    let mut tail = s.chars().rev();
    matches!(
        (tail.next(), tail.next()),
        (Some(c), Some('^' | '_')) if c.is_ascii_alphanumeric()
    )
}

fn ends_in_command(s: &str) -> bool {
    let word = s.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    word.len() < s.len() && word.ends_with('\\')
}

/// The TeX command of a mathematical character, if it has a common one.
fn command(c: char) -> Option<&'static str> {
    Some(match c {
        'α' => "\\alpha",
        'β' => "\\beta",
        'γ' => "\\gamma",
        'δ' => "\\delta",
        'ε' => "\\varepsilon",
        'ϵ' => "\\epsilon",
        'ζ' => "\\zeta",
        'η' => "\\eta",
        'θ' => "\\theta",
        'ϑ' => "\\vartheta",
        'ι' => "\\iota",
        'κ' => "\\kappa",
        'λ' => "\\lambda",
        'μ' => "\\mu",
        'ν' => "\\nu",
        'ξ' => "\\xi",
        'π' => "\\pi",
        'ρ' => "\\rho",
        'σ' => "\\sigma",
        'ς' => "\\varsigma",
        'τ' => "\\tau",
        'υ' => "\\upsilon",
        'φ' => "\\varphi",
        'ϕ' => "\\phi",
        'χ' => "\\chi",
        'ψ' => "\\psi",
        'ω' => "\\omega",
        'Γ' => "\\Gamma",
        'Δ' => "\\Delta",
        'Θ' => "\\Theta",
        'Λ' => "\\Lambda",
        'Ξ' => "\\Xi",
        'Π' => "\\Pi",
        'Σ' => "\\Sigma",
        'Υ' => "\\Upsilon",
        'Φ' => "\\Phi",
        'Ψ' => "\\Psi",
        'Ω' => "\\Omega",
        '∑' => "\\sum",
        '∏' => "\\prod",
        '∐' => "\\coprod",
        '∫' => "\\int",
        '∮' => "\\oint",
        '⋃' => "\\bigcup",
        '⋂' => "\\bigcap",
        '∞' => "\\infty",
        '≤' => "\\le",
        '≥' => "\\ge",
        '≠' => "\\ne",
        '≈' => "\\approx",
        '≡' => "\\equiv",
        '≅' => "\\cong",
        '∼' => "\\sim",
        '∝' => "\\propto",
        '±' => "\\pm",
        '∓' => "\\mp",
        '×' => "\\times",
        '÷' => "\\div",
        '⋅' | '·' => "\\cdot",
        '∘' => "\\circ",
        '⊕' => "\\oplus",
        '⊗' => "\\otimes",
        '→' => "\\to",
        '←' => "\\leftarrow",
        '↔' => "\\leftrightarrow",
        '⇒' => "\\Rightarrow",
        '⇐' => "\\Leftarrow",
        '⇔' => "\\Leftrightarrow",
        '↦' => "\\mapsto",
        '∈' => "\\in",
        '∉' => "\\notin",
        '∋' => "\\ni",
        '⊂' => "\\subset",
        '⊃' => "\\supset",
        '⊆' => "\\subseteq",
        '⊇' => "\\supseteq",
        '∪' => "\\cup",
        '∩' => "\\cap",
        '∅' => "\\emptyset",
        '∀' => "\\forall",
        '∃' => "\\exists",
        '¬' => "\\neg",
        '∧' => "\\land",
        '∨' => "\\lor",
        '∂' => "\\partial",
        '∇' => "\\nabla",
        '…' => "\\ldots",
        '⋯' => "\\cdots",
        '⋮' => "\\vdots",
        '⋱' => "\\ddots",
        '⟨' | '〈' => "\\langle",
        '⟩' | '〉' => "\\rangle",
        '⌊' => "\\lfloor",
        '⌋' => "\\rfloor",
        '⌈' => "\\lceil",
        '⌉' => "\\rceil",
        '‖' | '∥' => "\\|",
        '⊥' => "\\perp",
        '√' => "\\surd",
        'ℝ' => "\\mathbb{R}",
        'ℕ' => "\\mathbb{N}",
        'ℤ' => "\\mathbb{Z}",
        'ℚ' => "\\mathbb{Q}",
        'ℂ' => "\\mathbb{C}",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tex(mathml: &str) -> Option<String> {
        let dom = Dom::parse(&format!("<p>{mathml}</p>"));
        let math = dom
            .descendants(crate::dom::DOCUMENT)
            .find(|&n| dom.tag(n) == Some(Tag::Math))?;
        to_tex(&dom, math)
    }

    #[test]
    fn scripts_fractions_and_roots() {
        assert_eq!(
            tex("<math><msup><mi>y</mi><mn>3</mn></msup></math>").as_deref(),
            Some("y^3")
        );
        assert_eq!(
            tex("<math><msubsup><mi>x</mi><mi>i</mi><mn>10</mn></msubsup></math>").as_deref(),
            Some("x_i^{10}")
        );
        assert_eq!(
            tex("<math><mfrac><mrow><mi>a</mi><mo>+</mo><mn>1</mn></mrow><msqrt><mi>b</mi></msqrt></mfrac></math>")
                .as_deref(),
            Some("\\frac{a+1}{\\sqrt{b}}")
        );
        assert_eq!(
            tex("<math><mroot><mi>x</mi><mn>3</mn></mroot></math>").as_deref(),
            Some("\\sqrt[3]{x}")
        );
        // A base of more than one symbol is grouped.
        assert_eq!(
            tex("<math><msup><mrow><mo>(</mo><mi>a</mi><mo>+</mo><mi>b</mi><mo>)</mo></mrow><mn>2</mn></msup></math>")
                .as_deref(),
            Some("{(a+b)}^2")
        );
    }

    #[test]
    fn symbols_become_commands_and_keep_apart_from_letters() {
        assert_eq!(
            tex("<math><mrow><mi>α</mi><mi>x</mi><mo>≤</mo><mi>β</mi></mrow></math>").as_deref(),
            Some("\\alpha x\\le\\beta")
        );
        assert_eq!(
            tex("<math><mi>αb</mi></math>").as_deref(),
            Some("\\alpha b")
        );
        // Letters and digits run together as TeX reads them anyway.
        assert_eq!(
            tex("<math><mn>2</mn><mi>x</mi><mi>y</mi></math>").as_deref(),
            Some("2xy")
        );
        // Alignment marks are no content.
        assert_eq!(
            tex("<math><mi>a</mi><malignmark/><mo>=</mo><mi>b</mi></math>").as_deref(),
            Some("a=b")
        );
        assert_eq!(
            tex("<math><mi>sin</mi><mo>&#x2061;</mo><mi>x</mi></math>").as_deref(),
            Some("\\sin x")
        );
        assert_eq!(
            tex("<math><mi>rank</mi></math>").as_deref(),
            Some("\\mathrm{rank}")
        );
        assert_eq!(
            tex("<math><mi>a</mi><mo>#</mo><mi>b</mi><mo>&amp;</mo><mo>{</mo></math>").as_deref(),
            Some("a\\#b\\&\\{")
        );
        assert_eq!(
            tex("<math><mtext>if and only if</mtext></math>").as_deref(),
            Some("\\text{if and only if}")
        );
    }

    #[test]
    fn limits_accents_and_tables() {
        assert_eq!(
            tex("<math><munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><msub><mi>a</mi><mi>i</mi></msub></math>")
                .as_deref(),
            Some("\\sum_{i=1}^n a_i")
        );
        assert_eq!(
            tex("<math><mover><mi>x</mi><mo>¯</mo></mover></math>").as_deref(),
            Some("\\overline{x}")
        );
        assert_eq!(
            tex("<math><mover><mi>v</mi><mo>→</mo></mover></math>").as_deref(),
            Some("\\vec{v}")
        );
        assert_eq!(
            tex("<math><munder><mo>lim</mo><mrow><mi>n</mi><mo>→</mo><mi>∞</mi></mrow></munder></math>")
                .as_deref(),
            Some("\\lim_{n\\to\\infty}")
        );
        assert_eq!(
            tex("<math><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd></mtr></mtable></math>")
                .as_deref(),
            Some("\\begin{matrix} 1 & 0 \\\\ 0 & 1 \\end{matrix}")
        );
    }

    #[test]
    fn unknown_or_malformed_markup_gives_none() {
        assert_eq!(tex("<math><msup><mi>y</mi></msup></math>"), None);
        assert_eq!(tex("<math><mfoo><mi>y</mi></mfoo></math>"), None);
        assert_eq!(tex("<math> </math>"), None);
    }

    #[test]
    fn deep_formulas_cost_no_stack_and_large_ones_are_left_as_text() {
        // As deep as the parser's depth cap lets a page nest.
        let depth = 500;
        let html = format!(
            "<math>{}<mi>x</mi>{}</math>",
            "<mrow>".repeat(depth),
            "</mrow>".repeat(depth)
        );
        assert_eq!(tex(&html).as_deref(), Some("x"));
        let html = format!("<math>{}</math>", "<mi>x</mi>".repeat(MAX_NODES));
        assert_eq!(tex(&html), None);
    }
}
