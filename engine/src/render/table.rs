//! GFM tables: cells are collected while walking and written when the table ends.
use super::writer::Writer;
use crate::dom::{Attr, Dom, NodeId, Tag, NONE};

/// Spans beyond these are clamped: a hostile `colspan=1000` on every row must not multiply
/// the output.
const MAX_COLS: usize = 64;
const MAX_ROWSPAN: u32 = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    None,
    Left,
    Center,
    Right,
}

#[derive(Debug, Default)]
pub struct Table {
    rows: Vec<Vec<String>>,
    /// Alignment and header-ness of the first row's cells.
    align: Vec<Align>,
    first_row_header: bool,
    /// The second row is all `<th>` too: it is the header an empty first row gives way to.
    second_row_header: bool,
    row: Option<Vec<String>>,
    row_all_th: bool,
    /// Rows still covered by a rowspan from above, per column.
    carry: Vec<u32>,
    pub caption: Option<String>,
    pub layout: bool,
    /// The row being built is in `<tfoot>`.
    row_in_footer: bool,
    /// `<tfoot>` rows, written after the body as browsers show them.
    footer: Vec<Vec<String>>,
}

impl Table {
    pub fn new(layout: bool) -> Table {
        Table {
            layout,
            ..Table::default()
        }
    }

    pub fn start_row(&mut self, footer: bool) {
        self.end_row();
        self.row = Some(Vec::new());
        self.row_all_th = true;
        self.row_in_footer = footer;
    }

    pub fn end_row(&mut self) {
        let Some(mut row) = self.row.take() else {
            return;
        };
        self.fill_carried(&mut row);
        while row.len() < self.carry.len() {
            let col = row.len();
            if self.carry.get(col).copied().unwrap_or(0) > 0 {
                self.carry[col] -= 1;
            }
            row.push(String::new());
        }
        if self.row_in_footer {
            self.footer.push(row);
            return;
        }
        if self.rows.is_empty() {
            self.first_row_header = self.row_all_th;
        } else if self.rows.len() == 1 {
            self.second_row_header = self.row_all_th;
        }
        self.rows.push(row);
    }

    fn fill_carried(&mut self, row: &mut Vec<String>) {
        while let Some(c) = self.carry.get_mut(row.len()) {
            if *c == 0 {
                break;
            }
            *c -= 1;
            row.push(String::new());
        }
    }

    pub fn cell(&mut self, text: String, header: bool, colspan: u32, rowspan: u32, align: Align) {
        if self.row.is_none() {
            self.start_row(false);
        }
        let first_row = self.rows.is_empty();
        let mut row = self.row.take().unwrap_or_default();
        self.fill_carried(&mut row);
        if row.len() >= MAX_COLS {
            self.row = Some(row);
            return;
        }
        let colspan = (colspan.max(1) as usize).min(MAX_COLS - row.len());
        let rowspan = rowspan.clamp(1, MAX_ROWSPAN);
        let col = row.len();
        if first_row {
            while self.align.len() < col {
                self.align.push(Align::None);
            }
            self.align.push(align);
        }
        row.push(text);
        for _ in 1..colspan {
            row.push(String::new());
        }
        if self.carry.len() < col + colspan {
            self.carry.resize(col + colspan, 0);
        }
        for c in &mut self.carry[col..col + colspan] {
            *c = rowspan - 1;
        }
        self.row_all_th &= header;
        self.row = Some(row);
    }

    /// Write the table: a GFM table, or its cells as paragraphs when it is a layout table
    /// (marked presentational, or one column under no header row).
    pub fn write(mut self, w: &mut Writer) {
        self.end_row();
        let footer = std::mem::take(&mut self.footer);
        self.rows.extend(footer);
        // An empty header row of `<th>`s stays above rows with content: promoting the first
        // data row would make it a header it is not (turndown-plugin-gfm, htmd). A row of
        // `<th>`s right after it is the header itself.
        let empty_head = self.first_row_header
            && !self.second_row_header
            && self
                .rows
                .first()
                .is_some_and(|r| r.iter().all(|c| c.trim().is_empty()));
        let mut at = 0;
        self.rows.retain(|r| {
            at += 1;
            (at == 1 && empty_head) || r.iter().any(|c| !c.is_empty())
        });
        if empty_head && self.rows.len() == 1 {
            self.rows.clear();
        }
        self.drop_empty_columns();
        let cols = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        // The caption shows even above a table with no cells.
        if let Some(caption) = self.caption.take().filter(|c| !c.trim().is_empty()) {
            w.begin_block(false);
            w.inline.push_str(caption.trim());
            w.end_block();
        }
        if cols == 0 {
            return;
        }
        if self.layout || (cols == 1 && !self.first_row_header) {
            for row in &self.rows {
                for cell in row.iter().filter(|c| !c.trim().is_empty()) {
                    w.begin_block(false);
                    w.inline.push_str(cell.trim());
                    w.end_block();
                }
            }
            return;
        }
        let mut lines: Vec<String> = Vec::with_capacity(self.rows.len() + 2);
        let mut rows = self.rows.into_iter();
        // GFM needs a header row; without <th>/<thead> the first row serves, which is how
        // such tables read anyway.
        let header = if self.first_row_header {
            rows.next().unwrap_or_default()
        } else {
            match rows.next() {
                Some(first) => first,
                None => return,
            }
        };
        lines.push(row_line(&header, cols));
        let mut delim = String::from("|");
        for i in 0..cols {
            delim.push_str(match self.align.get(i).copied().unwrap_or(Align::None) {
                Align::None => " --- |",
                Align::Left => " :-- |",
                Align::Center => " :-: |",
                Align::Right => " --: |",
            });
        }
        lines.push(delim);
        for row in rows {
            lines.push(row_line(&row, cols));
        }
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        w.block_lines(&refs);
    }
}

impl Table {
    /// Columns empty in every row, header included, are left out while two remain: a
    /// separator row's `colspan="10"` (cppreference's syntax tables) widens every row after
    /// it with cells that hold nothing.
    fn drop_empty_columns(&mut self) {
        let cols = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let filled: Vec<bool> = (0..cols)
            .map(|i| {
                self.rows
                    .iter()
                    .any(|r| r.get(i).is_some_and(|c| !c.trim().is_empty()))
            })
            .collect();
        // Down to one column the table would read as a layout table (its cells written as
        // paragraphs): the empty column stays.
        let kept = filled.iter().filter(|&&f| f).count();
        if kept == cols || kept < 2 {
            return;
        }
        for row in &mut self.rows {
            let mut i = 0;
            row.retain(|_| {
                i += 1;
                filled.get(i - 1).copied().unwrap_or(false)
            });
        }
        let mut i = 0;
        self.align.retain(|_| {
            i += 1;
            filled.get(i - 1).copied().unwrap_or(true)
        });
    }
}

fn row_line(row: &[String], cols: usize) -> String {
    // Sized once: growing it cell by cell reallocated about five times per row.
    let cells: usize = row.iter().take(cols).map(String::len).sum();
    let mut line = String::with_capacity(1 + cells + 3 * cols);
    line.push('|');
    for i in 0..cols {
        let cell = row.get(i).map_or("", |c| c.trim());
        line.push(' ');
        line.push_str(cell);
        if !cell.is_empty() {
            line.push(' ');
        }
        line.push('|');
    }
    line
}

/// Alignment from `align="…"` or an inline `text-align:`.
pub fn parse_align(align_attr: Option<&str>, style: Option<&str>) -> Align {
    let from_style = style.and_then(|s| {
        let s = s.to_ascii_lowercase();
        let at = s.find("text-align")?;
        let rest = s[at + "text-align".len()..]
            .trim_start()
            .strip_prefix(':')?;
        Some(rest.split(';').next().unwrap_or("").trim().to_string())
    });
    let v = from_style.or_else(|| align_attr.map(|a| a.trim().to_ascii_lowercase()));
    match v.as_deref() {
        Some("left" | "start") => Align::Left,
        Some("center") => Align::Center,
        Some("right" | "end") => Align::Right,
        _ => Align::None,
    }
}

/// A cell of line numbers beside code (Pygments `td.linenos`, Rouge `td.rouge-gutter`,
/// gtk-doc `td.listing_lines`, …, or any cell that reads so: [`numbered_gutter`]).
pub fn gutter_cell(dom: &Dom, cell: NodeId) -> bool {
    dom.has_class(
        cell,
        &[
            "linenos",
            "rouge-gutter",
            "gutter",
            "blob-num",
            "hljs-ln-numbers",
            "listing_lines",
        ],
    ) || numbered_gutter(dom, cell)
}

/// Text nodes of a gutter's `<pre>` [`numbered_gutter`] reads (four times as many nodes of
/// the cell beside it, to find its `<pre>`).
const GUTTER_NODES: usize = 16;

/// A cell whose only content is a `<pre>` of line numbers counting up by one (`311`, `312`,
/// `313`), beside a cell holding a `<pre>`: the gutter of a listing, whatever its class
/// (YARD's `table.source_code`: `<td><pre class="lines">` beside `<td><pre class="code">`).
fn numbered_gutter(dom: &Dom, cell: NodeId) -> bool {
    if !matches!(dom.tag(cell), Some(Tag::Td | Tag::Th)) {
        return false;
    }
    let mut content = dom.children(cell).filter(|&c| match dom.tag(c) {
        Some(_) => true,
        None => !dom.text_of(c).trim().is_empty(),
    });
    let pre = match (content.next(), content.next()) {
        (Some(pre), None) if dom.tag(pre) == Some(Tag::Pre) => pre,
        _ => return false,
    };
    if !counts_lines(dom, pre) {
        return false;
    }
    let row = dom.node(cell).parent;
    if row == NONE {
        return false;
    }
    row_cells(dom, row).any(|c| {
        c != cell
            && dom
                .descendants(c)
                .take(GUTTER_NODES * 4)
                .any(|n| dom.tag(n) == Some(Tag::Pre))
    })
}

/// Whether the text of `pre` (text children only) is whole numbers, each one more than the
/// one before.
fn counts_lines(dom: &Dom, pre: NodeId) -> bool {
    let mut last: Option<u64> = None;
    for (seen, c) in dom.children(pre).enumerate() {
        if seen >= GUTTER_NODES || dom.tag(c).is_some() {
            return false;
        }
        for word in dom.text_of(c).split_whitespace() {
            let Ok(n) = word.parse::<u64>() else {
                return false;
            };
            if last.is_some_and(|l| l.checked_add(1) != Some(n)) {
                return false;
            }
            last = Some(n);
        }
    }
    last.is_some()
}

/// A code listing laid out as a table: a row with a line-number cell beside the code
/// (Pygments `table.highlighttable`, gtk-doc `table.listing_frame`). It is layout, but no
/// page column: the content is what holds it. Only the rows of the table itself are read.
pub fn is_code_listing(dom: &Dom, table: NodeId) -> bool {
    let beside_gutter = |row: NodeId| {
        dom.tag(row) == Some(Tag::Tr) && row_cells(dom, row).any(|c| gutter_cell(dom, c))
    };
    dom.children(table).any(|c| match dom.tag(c) {
        Some(Tag::Tbody | Tag::Thead | Tag::Tfoot) => dom.children(c).any(beside_gutter),
        _ => beside_gutter(c),
    })
}

/// Whether a `<table>` is page layout rather than data: marked presentational, one column
/// without a header (`<th>`, `<thead>`, `<caption>`: a one-column table with one is a list of
/// data under its heading), or holding structure no GFM cell can (nested tables, headings,
/// a code listing beside its line numbers). Layout tables render their cells as ordinary
/// blocks. The scan stops at the first nested table, so nested tables cost no more than one
/// pass each.
pub fn is_layout(dom: &Dom, table: NodeId) -> bool {
    let role = dom.attr(table, Attr::Role).map(str::trim);
    if role
        .is_some_and(|r| r.eq_ignore_ascii_case("presentation") || r.eq_ignore_ascii_case("none"))
    {
        return true;
    }
    let mut max_cells = 0usize;
    let mut structure = false;
    let mut header = false;
    let mut heading_rows = false;
    let mut multi_cell_rows = 0usize;
    // A row with two or more cells that are not spacers ([`spacer_cell`]).
    let mut filled_row = false;
    let mut min_cells = usize::MAX;
    // Rows holding cells, and listings of several lines in cells.
    let mut rows = 0usize;
    let mut listings = 0usize;
    // A nested table whose cells hold only inline content.
    let mut inline_tables = false;
    // Block content in a cell: page columns hold paragraphs and lists, member rows do not.
    let mut blocks = false;
    let mut stack: Vec<NodeId> = dom.children(table).collect();
    while let Some(id) = stack.pop() {
        let Some(tag) = dom.tag(id) else { continue };
        match tag {
            // A nested table or a heading makes a table layout, unless it has a header
            // (`<th>`, `<thead>`, `<caption>`): data tables do not use those for layout.
            // A nested table of inline cells may be a note inside a record (judged below).
            Tag::Table => {
                if inline_cells_only(dom, id) {
                    inline_tables = true;
                } else {
                    structure = true;
                }
                continue;
            }
            // A listing of several lines cannot sit in a GFM cell without losing its line
            // breaks (a `//` comment would swallow the rest; judged below).
            Tag::Pre if several_lines(dom, id) => {
                listings += 1;
                continue;
            }
            Tag::Td | Tag::Th if gutter_cell(dom, id) => return true,
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 => structure = true,
            // A heading alone in its row is written before the rows after it (judged below).
            Tag::Tr if heading_row(dom, id).is_some() => {
                heading_rows = true;
                continue;
            }
            Tag::Th | Tag::Thead | Tag::Caption => header = true,
            Tag::P
            | Tag::Div
            | Tag::Ul
            | Tag::Ol
            | Tag::Dl
            | Tag::Pre
            | Tag::Blockquote
            | Tag::Form
            | Tag::Section
            | Tag::Article
            | Tag::Nav
            | Tag::Aside
            | Tag::Header
            | Tag::Footer
            | Tag::Main => blocks = true,
            Tag::Tr => {
                let cells = row_cells(dom, id).count();
                max_cells = max_cells.max(cells);
                if cells > 0 {
                    min_cells = min_cells.min(cells);
                    rows += 1;
                }
                multi_cell_rows += usize::from(cells > 1);
                if cells > 1 && !filled_row {
                    filled_row = row_cells(dom, id)
                        .filter(|&c| !spacer_cell(dom, c))
                        .nth(1)
                        .is_some();
                }
            }
            _ => {}
        }
        stack.extend(dom.children(id));
    }
    // Heading rows title data only among rows of it (Doxygen's member summaries); above one
    // or two rows of columns holding blocks they title a page laid out in a table (site name
    // over navigation | article). One or two rows of inline cells are still members (a
    // Doxygen summary of one typedef, or one enum and its brief).
    if heading_rows && multi_cell_rows < 3 && blocks {
        structure = true;
    }
    // Rows of one filled cell beside empty spacer cells: a page laid out with an indent
    // column (pydoc's `table.section`: `&nbsp;` | a class's documentation), or a line set
    // after a control (Racket's contents: "►" | | the manual's title). As a table it would
    // be one column of content padded with empty ones.
    if multi_cell_rows > 0 && !filled_row {
        structure = true;
    }
    // Small tables of inline cells nested in a record of rows of the same width are notes
    // in its cells (cppreference's revision tables: `value_type&` | `(since C++11)` in a
    // member-types row), flattened into them; elsewhere they lay a page out.
    if inline_tables && !(multi_cell_rows >= 2 && min_cells == max_cells) {
        structure = true;
    }
    // Where listings fill the table (Boost.Function's "Preferred syntax" | "Portable syntax"
    // listings side by side, a note box around an example) its cells are written as blocks,
    // header or not; one listing among many rows of data leaves the table a table.
    if listings > 0 && listings * 2 >= rows {
        return true;
    }
    (max_cells <= 1 || structure) && !header
}

/// One row of `<td>`s that hold lists and nothing else, two lists or more, and no header: a
/// list set in columns (qdoc's "List of All Members": two cells of one `<ul>` each), written
/// as its lists, not as one GFM row of cells joined with bullets. For main-content selection
/// it stays a data table ([`is_layout`] is unchanged), so its intro goes with it; selection
/// only judges it whole, by its wrapper, instead of each column's list.
pub fn is_list_columns(dom: &Dom, table: NodeId) -> bool {
    let mut row = None;
    let mut take = |r: NodeId| row.replace(r).is_none();
    for c in dom.children(table) {
        let one = match dom.tag(c) {
            Some(Tag::Tr) => take(c),
            Some(Tag::Tbody) => dom.children(c).all(|r| match dom.tag(r) {
                Some(Tag::Tr) => take(r),
                Some(_) => false,
                None => true,
            }),
            // A caption, a header or footer, column groups: a table of data.
            Some(_) => false,
            None => true,
        };
        if !one {
            return false;
        }
    }
    let Some(row) = row else { return false };
    let mut lists = 0;
    for cell in dom.children(row) {
        match dom.tag(cell) {
            Some(Tag::Td) => {}
            None if dom.text_of(cell).trim().is_empty() => continue,
            _ => return false,
        }
        for c in dom.children(cell) {
            match dom.tag(c) {
                Some(Tag::Ul | Tag::Ol | Tag::Dl) => lists += 1,
                None if dom.text_of(c).trim().is_empty() => {}
                _ => return false,
            }
        }
    }
    lists > 1
}

/// Nodes [`inline_cells_only`] and [`several_lines`] read before answering no.
const NESTED_SCAN: usize = 2000;

/// Whether a (nested) table holds nothing but rows of inline cells: no block, list, code
/// block, heading or further table in any cell.
fn inline_cells_only(dom: &Dom, table: NodeId) -> bool {
    for (seen, n) in dom.descendants(table).enumerate() {
        if seen >= NESTED_SCAN {
            return false;
        }
        let inline = match dom.tag(n) {
            None => true,
            Some(Tag::Tbody | Tag::Thead | Tag::Tfoot | Tag::Tr | Tag::Td | Tag::Th) => true,
            Some(Tag::Table | Tag::Caption | Tag::Pre | Tag::Listing | Tag::Xmp) => false,
            Some(Tag::P | Tag::Div | Tag::Ul | Tag::Ol | Tag::Dl | Tag::Blockquote) => false,
            Some(Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6) => false,
            Some(Tag::Section | Tag::Article | Tag::Nav | Tag::Aside | Tag::Form) => false,
            Some(Tag::Header | Tag::Footer | Tag::Main | Tag::Hr) => false,
            Some(_) => true,
        };
        if !inline {
            return false;
        }
    }
    true
}

/// Whether a `<pre>` holds more than one line of text (blank lines at its ends aside).
fn several_lines(dom: &Dom, pre: NodeId) -> bool {
    let mut text_seen = false;
    // A line break after text: the next text starts a second line.
    let mut broken = false;
    for (seen, n) in dom.descendants(pre).enumerate() {
        if seen >= NESTED_SCAN {
            return text_seen;
        }
        match dom.tag(n) {
            Some(Tag::Br) => broken |= text_seen,
            Some(_) => {}
            None => {
                for (i, piece) in dom.text_of(n).split('\n').enumerate() {
                    broken |= i > 0 && text_seen;
                    if !piece.trim().is_empty() {
                        if broken {
                            return true;
                        }
                        text_seen = true;
                    }
                }
            }
        }
    }
    false
}

/// A cell that only makes room: no text but white space (`&nbsp;` included) and no element
/// but `<span>`/`<br>` among its first few nodes, or a script toggle, which is not written
/// ([`super::script_toggle`]: Racket's contents put "►" in a cell of its own).
fn spacer_cell(dom: &Dom, cell: NodeId) -> bool {
    let in_toggle = |n: NodeId| {
        dom.ancestors(n)
            .take_while(|&a| a != cell)
            .any(|a| dom.tag(a) == Some(Tag::A) && super::script_toggle(dom, a))
    };
    let mut nodes = dom.descendants(cell);
    for n in nodes.by_ref().take(8) {
        match dom.tag(n) {
            None if dom.text_of(n).trim().is_empty() || in_toggle(n) => {}
            Some(Tag::Span | Tag::Br) => {}
            Some(Tag::A) if super::script_toggle(dom, n) => {}
            _ => return false,
        }
    }
    nodes.next().is_none()
}

/// The heading of a row that holds nothing else: one cell, whose only content is a heading
/// (Doxygen's `<tr class="heading"><td colspan="2"><h2>Data Fields</h2></td></tr>`) or a
/// Doxygen member group's title or text (`div.groupHeader`, `div.groupText`: the title is
/// styled as a heading, the text as its lead). It titles the rows after it, and is written
/// as a block between two tables, not as a GFM header or a row of one filled cell.
pub fn heading_row(dom: &Dom, tr: NodeId) -> Option<NodeId> {
    let mut cells = dom.children(tr).filter(|&c| dom.tag(c).is_some());
    let cell = cells.next()?;
    if cells.next().is_some() || !matches!(dom.tag(cell), Some(Tag::Td | Tag::Th)) {
        return None;
    }
    let mut heading = None;
    for c in dom.children(cell) {
        match dom.tag(c) {
            Some(Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6)
                if heading.is_none() =>
            {
                heading = Some(c);
            }
            Some(Tag::Div)
                if heading.is_none() && dom.has_class(c, &["groupHeader", "groupText"]) =>
            {
                heading = Some(c);
            }
            Some(_) => return None,
            None if !dom.text_of(c).trim().is_empty() => return None,
            None => {}
        }
    }
    heading
}

/// The cells (`<td>`, `<th>`) of a row.
fn row_cells(dom: &Dom, tr: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    dom.children(tr)
        .filter(move |&c| matches!(dom.tag(c), Some(Tag::Td | Tag::Th)))
}

/// The table a row belongs to, through `<thead>`, `<tbody>` or `<tfoot>`.
fn table_of_row(dom: &Dom, tr: NodeId) -> Option<NodeId> {
    let mut up = dom.node(tr).parent;
    if matches!(dom.tag(up), Some(Tag::Thead | Tag::Tbody | Tag::Tfoot)) {
        up = dom.node(up).parent;
    }
    (dom.tag(up) == Some(Tag::Table)).then_some(up)
}

/// The first row of a table, when every cell of it is a `<th>`.
fn header_row(dom: &Dom, table: NodeId) -> Option<NodeId> {
    let row_of = |c: NodeId| match dom.tag(c) {
        Some(Tag::Tr) => Some(c),
        Some(Tag::Thead | Tag::Tbody | Tag::Tfoot) => {
            dom.children(c).find(|&r| dom.tag(r) == Some(Tag::Tr))
        }
        _ => None,
    };
    let first = dom.children(table).find_map(row_of)?;
    let mut cells = row_cells(dom, first).peekable();
    cells.peek()?;
    cells.all(|c| dom.tag(c) == Some(Tag::Th)).then_some(first)
}

/// Whether `tr` is the header row of a table written as blocks (one holding a listing of
/// several lines): its cells label the cells below them instead ([`column_label`]).
pub fn is_label_row(dom: &Dom, tr: NodeId) -> bool {
    table_of_row(dom, tr).and_then(|t| header_row(dom, t)) == Some(tr)
}

/// The text of the header cell above `cell` in a table written as blocks, so a code block
/// keeps its column's name ("Preferred syntax" over one listing, "Portable syntax" over the
/// other, as Boost.Function's tutorial sets them side by side).
pub fn column_label(dom: &Dom, cell: NodeId) -> Option<String> {
    let tr = dom.node(cell).parent;
    let head = table_of_row(dom, tr).and_then(|t| header_row(dom, t))?;
    let blank = || {
        dom.descendants(cell)
            .take(NESTED_SCAN)
            .all(|n| dom.tag(n).is_some() || dom.text_of(n).trim().is_empty())
    };
    if head == tr || blank() {
        return None;
    }
    let span = |c: NodeId| {
        dom.attr(c, Attr::Colspan)
            .and_then(|v| v.trim().parse::<usize>().ok())
            .unwrap_or(1)
            .clamp(1, MAX_COLS)
    };
    let col: usize = row_cells(dom, tr)
        .take_while(|&c| c != cell)
        .map(span)
        .sum();
    let mut at = 0;
    let label = row_cells(dom, head).find(|&h| {
        at += span(h);
        at > col
    })?;
    let text: String = dom
        .descendants(label)
        .take(NESTED_SCAN)
        .filter(|&n| dom.tag(n).is_none())
        .map(|n| dom.text_of(n))
        .collect::<Vec<_>>()
        .join("");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!text.is_empty()).then_some(text)
}
