//! Tab widgets (`role="tablist"` over `role="tabpanel"`s: Docusaurus, Starlight, Microsoft
//! Learn, Bootstrap; MkDocs Material's `div.tabbed-labels` over `div.tabbed-block`s; VitePress
//! code groups, `div.tabs` over `div.blocks`). A page
//! shows one panel and its tab names in a row; Markdown shows every panel a tab names, hidden
//! or not (a click away, like a closed `<details>`), each headed by its tab's name, and the
//! row of names goes: "npm" over `npm install`, "Yarn" over `yarn add`. A hidden panel no
//! visible tab names stays hidden.

use crate::dom::{Attr, Dom, Kind, NodeId, Tag, NONE};

/// How a widget marks its tabs and panels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Widget {
    /// WAI-ARIA roles: `tablist`, `tab`, `tabpanel`.
    Aria,
    /// MkDocs Material (pymdownx.tabbed, alternate style): `<label>`s in `div.tabbed-labels`,
    /// panels `div.tabbed-block`, all in one `div.tabbed-set`.
    Tabbed,
    /// A VitePress code group: `<label>`s in `div.tabs`, the code blocks in `div.blocks`,
    /// both in `div.vp-code-group` (CSS shows the block of the checked radio button).
    CodeGroup,
}

/// The widget whose tab row `id` is, if it is one.
pub fn tab_list(dom: &Dom, id: NodeId, tag: Tag) -> Option<Widget> {
    if has_role(dom, id, "tablist") {
        return Some(Widget::Aria);
    }
    if tag != Tag::Div {
        return None;
    }
    // One pass over the class (every classed `<div>` is asked).
    let widget = std::cell::Cell::new(None);
    dom.has_class_where(id, |c| {
        widget.set(match c {
            "tabbed-labels" => Some(Widget::Tabbed),
            "tabs" => Some(Widget::CodeGroup),
            _ => return false,
        });
        true
    });
    match widget.get() {
        Some(Widget::CodeGroup) if !parent_has_class(dom, id, "vp-code-group") => None,
        found => found,
    }
}

fn is_tab(dom: &Dom, id: NodeId, widget: Widget) -> bool {
    match widget {
        Widget::Aria => has_role(dom, id, "tab"),
        Widget::Tabbed | Widget::CodeGroup => dom.tag(id) == Some(Tag::Label),
    }
}

fn is_panel(dom: &Dom, id: NodeId, widget: Widget) -> bool {
    match widget {
        Widget::Aria => has_role(dom, id, "tabpanel"),
        Widget::Tabbed => dom.tag(id) == Some(Tag::Div) && dom.has_class(id, &["tabbed-block"]),
        Widget::CodeGroup => dom.tag(id) == Some(Tag::Div) && parent_has_class(dom, id, "blocks"),
    }
}

fn parent_has_class(dom: &Dom, id: NodeId, class: &str) -> bool {
    let parent = dom.node(id).parent;
    parent != NONE && dom.has_class(parent, &[class])
}

/// At most this many tabs in one widget; more is not a tab row.
const MAX_TABS: usize = 16;
/// Nodes read to find the tabs, and the panels (outside them).
const MAX_NODES: usize = 512;

pub fn has_role(dom: &Dom, id: NodeId, role: &str) -> bool {
    dom.attr(id, Attr::Role)
        .is_some_and(|r| r.trim().eq_ignore_ascii_case(role))
}

/// Show the panels that a visible tab names (hidden ones included): the parser decided
/// hiddenness per element; this is the one exception, and it needs the whole tree.
pub fn show_named_panels(dom: &mut Dom) {
    let mut shown = Vec::new();
    for (i, node) in dom.nodes.iter().enumerate() {
        let Kind::Element {
            present,
            tag,
            hidden,
            ..
        } = node.kind
        else {
            continue;
        };
        let id = i as NodeId;
        // AWS documentation hides its tabs' source, a `<dl>` of tab names and panels, until a
        // script builds the tab row from it (`<awsdocs-tabs><dl style="display: none">`).
        if hidden
            && tag == Tag::Dl
            && node.parent != NONE
            && dom.local_name(node.parent) == "awsdocs-tabs"
        {
            shown.push(id);
            continue;
        }
        if present & Attr::Role.bit() == 0 || !has_role(dom, id, "tablist") || hidden_here(dom, id)
        {
            continue;
        }
        if let Some(pairs) = labelled_panels(dom, id, Widget::Aria) {
            shown.extend(pairs.into_iter().map(|(panel, _)| panel));
        }
    }
    for panel in shown {
        if let Some(Kind::Element { hidden, .. }) =
            dom.nodes.get_mut(panel as usize).map(|n| &mut n.kind)
        {
            *hidden = false;
        }
    }
}

/// Whether `id` or an ancestor is hidden: a hidden tab row shows no tab to choose.
fn hidden_here(dom: &Dom, mut id: NodeId) -> bool {
    while id != NONE {
        if dom.is_hidden(id) {
            return true;
        }
        id = dom.node(id).parent;
    }
    false
}

/// Each panel of the widget `tablist` heads with its tab's name, in order, when the tabs and
/// the panels after the list pair up one to one; `None` leaves the list as it is.
pub fn labelled_panels(
    dom: &Dom,
    tablist: NodeId,
    widget: Widget,
) -> Option<Vec<(NodeId, String)>> {
    let mut labels = Vec::new();
    for (n, d) in dom.descendants(tablist).enumerate() {
        if n >= MAX_NODES || labels.len() > MAX_TABS {
            return None;
        }
        if dom.tag(d).is_some() && is_tab(dom, d, widget) {
            let label = text(dom, d);
            if label.is_empty() {
                return None;
            }
            labels.push(label);
        }
    }
    if labels.is_empty() {
        return None;
    }
    // The widget: the nearest of a few ancestors holding the panels (Starlight wraps the list).
    let mut container = tablist;
    for _ in 0..3 {
        container = dom.node(container).parent;
        if container == NONE {
            return None;
        }
        if let Some(panels) = panels_after(dom, container, tablist, labels.len(), widget) {
            return Some(panels.into_iter().zip(labels).collect());
        }
    }
    None
}

/// The `want` tab panels in `container`, all after `tablist` in document order; not looking
/// inside a panel, and giving up at another tab list.
fn panels_after(
    dom: &Dom,
    container: NodeId,
    tablist: NodeId,
    want: usize,
    widget: Widget,
) -> Option<Vec<NodeId>> {
    let mut stack: Vec<NodeId> = dom.children(container).collect();
    stack.reverse();
    let mut seen_list = false;
    let mut panels = Vec::new();
    let mut visited = 0;
    while let Some(id) = stack.pop() {
        visited += 1;
        if visited > MAX_NODES {
            return None;
        }
        if id == tablist {
            seen_list = true;
            continue;
        }
        if dom.tag(id).is_none() {
            continue;
        }
        if is_panel(dom, id, widget) {
            if !seen_list || panels.len() == want {
                return None;
            }
            panels.push(id);
            continue;
        }
        if tab_list(dom, id, dom.tag(id).unwrap_or(Tag::Other)).is_some() {
            return None;
        }
        let at = stack.len();
        stack.extend(dom.children(id));
        if let Some(added) = stack.get_mut(at..) {
            added.reverse();
        }
    }
    (panels.len() == want).then_some(panels)
}

/// The tab's words, white space collapsed.
fn text(dom: &Dom, tab: NodeId) -> String {
    let mut out = String::new();
    for d in dom.descendants(tab) {
        if dom.tag(d).is_none() {
            for word in dom.text_of(d).split_whitespace() {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(word);
            }
        }
    }
    out
}
