//! Article extraction on messy news pages, against what a reader-mode extractor keeps.
//!
//! Each `corpus/news/<page>.article.txt` holds the article as Firefox's Reader View shows it
//! (headline and paragraphs, one per line). The page's Markdown, read back with a GFM parser
//! (pulldown-cmark), must
//! - contain every article line (recall; the issue asks ≥ 98 %, we hold every page to 100 %
//!   since a dropped paragraph is the worst failure), and
//! - be mostly article: of the words a reader sees, at least 85 % must line up with the
//!   article's words in order (longest common subsequence), the rest being chrome that
//!   survived (bylines, breadcrumbs, captions count against us).
mod common;

use std::fs;

use agent_markdown::{convert, Options};
use common::{corpus_root, files_with_extension, pruned, BASE};
use pulldown_cmark::{Event, Options as MdOptions, Parser, Tag, TagEnd};

const MIN_PRECISION: f64 = 0.85;

/// What a reader sees of the Markdown: text, code, and image alt text, blocks separated by
/// newlines, front matter excluded (it is metadata, not article text).
fn visible_text(md: &str) -> String {
    let body = match md.strip_prefix("---\n") {
        Some(rest) => rest.split_once("\n---\n").map_or(md, |(_, body)| body),
        None => md,
    };
    let mut out = String::new();
    for event in Parser::new_ext(
        body,
        MdOptions::ENABLE_TABLES | MdOptions::ENABLE_STRIKETHROUGH,
    ) {
        match event {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            Event::Start(Tag::Image { .. }) => out.push(' '),
            Event::End(
                TagEnd::Paragraph
                | TagEnd::Heading(_)
                | TagEnd::Item
                | TagEnd::TableCell
                | TagEnd::BlockQuote(_)
                | TagEnd::CodeBlock
                | TagEnd::Image,
            ) => out.push('\n'),
            _ => {}
        }
    }
    out
}

fn normalize(s: &str) -> String {
    s.replace('\u{a0}', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Lower-cased words, punctuation that belongs to numbers and quotes kept.
fn words(s: &str) -> Vec<String> {
    s.split(|c: char| {
        !(c.is_alphanumeric() || matches!(c, '\'' | '’' | '.' | ',' | '$' | '%' | '–' | '—' | '-'))
    })
    .filter(|w| !w.is_empty())
    .map(str::to_lowercase)
    .collect()
}

/// Length of the longest common subsequence (two rows: pages are a few hundred words).
fn lcs(a: &[String], b: &[String]) -> usize {
    let mut prev = vec![0usize; b.len() + 1];
    let mut cur = vec![0usize; b.len() + 1];
    for x in a {
        for (j, y) in b.iter().enumerate() {
            cur[j + 1] = if x == y {
                prev[j] + 1
            } else {
                cur[j].max(prev[j + 1])
            };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[test]
fn news_pages_keep_the_article_and_little_else() {
    let dir = corpus_root().join("news");
    let articles = files_with_extension(&dir, "txt");
    assert!(articles.len() >= 5, "expected the news reference articles");
    let mut failures = Vec::new();
    for art in articles {
        let name = art
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".article.txt"))
            .unwrap_or_else(|| panic!("unexpected file {}", art.display()))
            .to_owned();
        let html = fs::read(dir.join(format!("{name}.html"))).expect("page for the article");
        let opts = Options {
            base_url: Some(format!("{BASE}news/{name}.html")),
            ..Options::default()
        };
        let md = convert(&html, &opts).markdown;
        let text = normalize(&visible_text(&md));
        let lines: Vec<String> = fs::read_to_string(&art)
            .expect("article text")
            .lines()
            .map(normalize)
            .filter(|l| !l.is_empty())
            .collect();
        let missing: Vec<&String> = lines
            .iter()
            .filter(|l| !text.contains(l.as_str()))
            .collect();
        let out_words = words(&text);
        let art_words = words(&lines.join(" "));
        let precision = lcs(&out_words, &art_words) as f64 / out_words.len().max(1) as f64;
        println!(
            "{name}: recall {}/{} lines, precision {:.1}% of {} words",
            lines.len() - missing.len(),
            lines.len(),
            precision * 100.0,
            out_words.len()
        );
        if !missing.is_empty() {
            failures.push(format!("{name}: article lines missing: {missing:?}"));
        }
        if precision < MIN_PRECISION {
            failures.push(format!(
                "{name}: only {:.1}% of the output is article (want ≥ {:.0}%)",
                precision * 100.0,
                MIN_PRECISION * 100.0
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_scorer_notices_missing_and_extra_text() {
    let article = "The comet brightened. Observers are pleased.";
    let art_words = words(article);
    // Chrome around the article lowers precision; the article alone is all article.
    let padded = words("Home News Sport Weather The comet brightened. Observers are pleased.");
    assert!(lcs(&padded, &art_words) * 100 / padded.len() < 85);
    assert_eq!(lcs(&art_words, &art_words), art_words.len());
    // A missing line is noticed.
    let text = normalize(&visible_text("# The comet brightened.\n"));
    assert!(!text.contains("Observers are pleased."));
    assert!(text.contains("The comet brightened."));
}

/// A paragraph of article prose, `n` sentences long.
fn article_prose(n: usize) -> String {
    "The council approved the harbour plan after a long debate about dredging costs. ".repeat(n)
}

#[test]
fn a_wrapper_named_like_boilerplate_that_holds_the_article_is_kept() {
    // Shapes from Readability's test pages where a class name alone used to drop the whole
    // article: Drupal panels inside `[role=main]`, Blogger's `widget Blog` (no main), The
    // Verge's `l-sidebar-fixed l-article-body`.
    let p = article_prose(6);
    let pages = [
        format!(
            "<body><nav><a href=/>Home</a></nav><div id=content role=main>\
             <div class=\"panel-display panel-two-col-sidebar-right-mix\">\
             <div class=panel-main><h1>Harbour plan</h1><p>{p}</p><p>{p}</p></div>\
             <div class=\"panel-sidebar\"><p>Donate today</p></div></div></div></body>"
        ),
        format!(
            "<body><div class=\"widget Header\" id=Header1><h1>My blog</h1></div>\
             <div class=\"widget Blog\" id=Blog1><h3>Harbour plan</h3><div class=post-body>\
             {p}<br><br>{p}</div><div class=\"share-buttons\"><a href=/s>Share</a></div></div>\
             <div class=\"widget BlogArchive\"><a href=/2016>2016</a></div></body>"
        ),
        format!(
            "<body><header><a href=/>Site</a></header><section class=l-main-content>\
             <div class=\"l-sidebar-fixed l-segment l-article-body\"><h1>Harbour plan</h1>\
             <div class=c-entry-content><p>{p}</p><p>{p}</p></div>\
             <div class=\"c-related-list\"><a href=/x>More stories</a></div></div></section></body>"
        ),
    ];
    for html in &pages {
        let out = pruned(html);
        assert!(out.contains("Harbour plan"), "headline lost:\n{out}");
        assert!(
            out.matches("dredging costs").count() >= 12,
            "article text lost:\n{out}"
        );
        // Boilerplate inside the kept wrapper is still judged on its own.
        for chrome in ["Donate today", "Share", "More stories"] {
            assert!(!out.contains(chrome), "{chrome:?} kept:\n{out}");
        }
    }
}

#[test]
fn a_gallery_named_like_boilerplate_inside_the_article_is_still_dropped() {
    // A slideshow widget that holds most of the text but not nearly all of it (71 % on
    // Readability's bug-1255978 page) is an embed, not the article's wrapper.
    let p = article_prose(4);
    let slides: String = (1..=12)
        .map(|i| {
            format!(
                "<li><h2>{i}/12 Markets</h2><p>Slide caption number {i} about the markets and \
                 the week's winners and losers in the city.</p></li>"
            )
        })
        .collect();
    let html = format!(
        "<body><main><h1>Hotel prices</h1><p>{p}</p>\
         <div class=\"dnd-widget-wrapper type-gallery\"><ul>{slides}</ul></div>\
         <p>{p}</p></main></body>"
    );
    let out = pruned(&html);
    assert!(
        out.matches("dredging costs").count() >= 8,
        "article lost:\n{out}"
    );
    assert!(!out.contains("Slide caption"), "gallery kept:\n{out}");
}

#[test]
fn a_picture_and_its_caption_in_a_widget_wrapper_are_kept() {
    // Readability's bug-1255978: the editor wraps each picture in `dnd-widget-wrapper`, with
    // its caption in `dnd-caption-wrapper`; the picture is the article's.
    let p = article_prose(4);
    let picture = "<div class=\"dnd-widget-wrapper type-image\"><div class=image>\
                   <img src=/bed.jpg alt=bed.jpg></div><div class=dnd-caption-wrapper>\
                   Even posh hotels might not wash a blanket in between stays</div></div>";
    // An image that links somewhere, in a box named so, is still a promotion.
    let promo = "<div class=\"widget promo\"><a href=/shop><img src=/ad.jpg alt=Sale></a>\
                 Big sale this week</div>";
    let html = format!(
        "<body><main><h1>Hotel secrets</h1><p>{p}</p>{picture}<p>{p}</p>{promo}</main></body>"
    );
    let out = pruned(&html);
    assert!(out.contains("![bed.jpg](/bed.jpg)"), "picture lost:\n{out}");
    assert!(
        out.contains("Even posh hotels might not wash"),
        "caption lost:\n{out}"
    );
    assert!(!out.contains("Big sale"), "promotion kept:\n{out}");
}

#[test]
fn prose_around_the_densest_block_is_kept() {
    // Herald Sun: the intro paragraphs sit above a "Read more" box holding the rest.
    let intro = "The government team toured the newsrooms this week, meeting editors and \
                 union officials about the surveillance bill and its effect on sources. ";
    let rest: String = (0..8)
        .map(|i| format!("<p>Paragraph {i} of the rest: {}</p>", article_prose(2)))
        .collect();
    let html = format!(
        "<body><div id=page><div class=masthead-links><a href=/a>Sport</a> <a href=/b>News</a>\
         </div><div class=story-body><p>{intro}</p><p>{intro}</p>\
         <div id=read-more><a href=\"\">Read more</a><div id=read-more-content>{rest}</div></div>\
         </div><div class=links><a href=/c>Lotto results</a> <a href=/d>Weather</a></div></div></body>"
    );
    let out = pruned(&html);
    assert_eq!(
        out.matches("toured the newsrooms").count(),
        2,
        "intro lost:\n{out}"
    );
    assert!(out.contains("Paragraph 7 of the rest"), "{out}");
    assert!(!out.contains("Lotto"), "{out}");

    // Quanta: chapters in sections nested at different depths under one wrapper.
    let chapter = |name: &str, n: usize| -> String {
        (0..n)
            .map(|i| format!("<p>{name} paragraph {i}: {}</p>", article_prose(2)))
            .collect()
    };
    let html = format!(
        "<body><div id=app><nav><a href=/>Home</a></nav><div class=acf-content>\
         <div class=post__wrapper><div class=mha><section class=outer><div class=post__content>\
         {}</div></section></div></div>\
         <section class=outer><div class=post__content>{}</div></section>\
         <section class=outer><div class=post__content>{}</div></section></div></div></body>",
        chapter("First", 8),
        chapter("Second", 4),
        chapter("Third", 3)
    );
    let out = pruned(&html);
    for needle in [
        "First paragraph 7",
        "Second paragraph 3",
        "Third paragraph 2",
    ] {
        assert!(out.contains(needle), "{needle:?} lost:\n{out}");
    }
}

#[test]
fn a_lead_written_as_a_div_beside_the_body_is_kept() {
    // aktualne.cz: the lead is `div.article__perex` (text, no blocks) beside the body's
    // `div.article__content`; Readability reads such a div as a paragraph.
    let body: String = (0..8)
        .map(|i| format!("<p>Body paragraph {i}: {}</p>", article_prose(2)))
        .collect();
    let html = format!(
        "<body><div class=menu-links><a href=/a>Sport</a> <a href=/b>News</a></div>\
         <div class=article><div class=author><a href=/authors/1>A. Writer</a>\
         <div class=author__date>two hours ago</div></div>\
         <div class=article__perex>A miracle of one season? The team keeps answering its \
         doubters, and the football world starts to see a new member of the elite.</div>\
         <div class=article__content>{body}</div>\
         <div class=taglist><a href=/t/1>Premier League</a> <a href=/t/2>West Ham</a> \
         <a href=/t/3>Football abroad</a></div></div></body>"
    );
    let out = pruned(&html);
    assert!(
        out.contains("A miracle of one season?"),
        "lead lost:\n{out}"
    );
    assert!(out.contains("Body paragraph 7"), "{out}");
    // A div of links beside it is still not prose.
    assert!(!out.contains("Football abroad"), "{out}");
}

#[test]
fn a_toolbar_of_share_buttons_is_dropped() {
    // The New York Times: `<div role="toolbar" aria-label="Social Media Share buttons…">`
    // around a list of share links under hashed class names.
    let p = article_prose(4);
    let html = format!(
        "<body><main><h1>Debt and interest</h1>\
         <div role=toolbar aria-label=\"Share buttons\"><ul class=css-y8aj3r>\
         <li><a href=\"https://www.facebook.com/dialog/feed?link=x\">Share on Facebook</a></li>\
         <li><a href=\"https://twitter.com/intent/tweet?url=x\">Share on Twitter</a></li>\
         </ul></div><p>{p}</p></main></body>"
    );
    let out = pruned(&html);
    assert!(
        out.contains("Debt and interest") && out.contains("dredging costs"),
        "{out}"
    );
    assert!(!out.contains("Share on"), "share buttons kept:\n{out}");
}

#[test]
fn a_declared_article_loses_link_lists_inside_its_main() {
    // CNN Money, MSN, BBC: `og:type` article pages whose `<main>` holds teaser lists after
    // the story. A graphic linked to its interactive version between the story's paragraphs
    // (the Washington Post's map) is the story's.
    let p = article_prose(4);
    let teasers: String = (1..=4)
        .map(|i| {
            format!("<li><a href=/story/{i}><img src=/t{i}.jpg alt=\"\"> Teaser story number {i} from elsewhere</a></li>")
        })
        .collect();
    let graphic = "<div class=inline-graphic><a href=/graphic/map><img src=/map.jpg alt=\"\"></a> \
                   <a href=/graphic/map>Map: the flow of ships into the harbour</a></div>";
    let body = format!(
        "<main><h1>Harbour plan</h1><p>{p}</p>{graphic}<p>{p}</p><div class=x><ul>{teasers}</ul></div></main>"
    );
    for wrapper in ["main", "article"] {
        let body = body.replace("main>", &format!("{wrapper}>"));
        let html = format!(
            "<html><head><meta property=\"og:type\" content=\"article\"></head><body>{body}</body></html>"
        );
        let out = pruned(&html);
        assert!(
            out.matches("dredging costs").count() >= 8,
            "article lost:\n{out}"
        );
        assert!(
            out.contains("Map: the flow of ships") && out.contains("/map.jpg"),
            "graphic lost:\n{out}"
        );
        assert!(!out.contains("Teaser story"), "teasers kept:\n{out}");

        // Undeclared (documentation pages: API generators set no og:type), the main keeps
        // what is not named or marked as boilerplate.
        let out = pruned(&format!("<html><body>{body}</body></html>"));
        assert!(out.contains("Teaser story number 4"), "{out}");
    }
}

#[test]
fn a_declared_articles_list_of_linked_headlines_with_blurbs_goes_but_a_section_front_stays() {
    // Readability's yahoo-3: the story and, in the same `[role=main]`, "Recommended for
    // You": items of a picture link, a linked `<h3>` headline and a one-sentence blurb.
    // Each blurb is prose, so the list is no link farm; it is still the site's teasers.
    let teaser = |i: usize| {
        format!(
            "<li><a href=/s/{i}><img src=/t{i}.jpg alt=\"\"></a><div><h3><a href=/s/{i}>Other \
             headline number {i}</a></h3><p>A blurb of story {i}, two lines long, which says \
             what happened and where it happened.</p><span>Good Morning America</span></div></li>"
        )
    };
    let stream: String = (1..=6).map(teaser).collect();
    let story: String = (0..4)
        .map(|_| format!("<p>{}</p>", article_prose(4)))
        .collect();
    let page = |main: &str| {
        format!(
            "<html><head><meta property=\"og:type\" content=\"article\"></head><body>\
             <div id=Main role=main>{main}</div></body></html>"
        )
    };
    let html = page(&format!(
        "<section class=story><h1>Harbour plan</h1><div class=body>{story}</div></section>\
         <div class=stream><h2>Recommended for You</h2><ul>{stream}</ul></div>"
    ));
    let out = pruned(&html);
    assert_eq!(
        out.matches("dredging costs").count(),
        16,
        "story lost:\n{out}"
    );
    assert!(!out.contains("Other headline"), "teasers kept:\n{out}");
    assert!(!out.contains("A blurb of story"), "blurbs kept:\n{out}");
    // Its label would head nothing; so would yahoo-3's, a block of its own before the
    // list's wrapper.
    assert!(!out.contains("Recommended"), "label kept:\n{out}");
    let wrapped = html
        .replace(
            "<h2>Recommended for You</h2><ul>",
            "<div class=hd><div><h2>Recommended for You</h2></div></div><div class=bd><ul>",
        )
        .replace("</ul></div>", "</ul></div></div>");
    let out = pruned(&wrapped);
    assert!(
        !out.contains("Recommended") && !out.contains("Other headline"),
        "{out}"
    );
    // A title right before such a list stays.
    let titled = html.replace("<h2>Recommended for You</h2>", "<h1>Harbour news</h1>");
    assert!(pruned(&titled).contains("# Harbour news"), "{titled}");

    // Without a story beside them the lists are the page (a section front: Readability's
    // nytimes-5), and nothing is dropped.
    let front = page(&format!(
        "<h2>Highlights</h2><ol>{stream}</ol><h2>Opinion</h2><ol>{stream}</ol>"
    ));
    let out = pruned(&front);
    assert_eq!(
        out.matches("A blurb of story 6").count(),
        2,
        "section front lost:\n{out}"
    );

    // A list whose items carry more than a blurb is part of the story (a listicle), and
    // undeclared pages (documentation) keep such lists whatever they hold.
    let long = (1..=4)
        .map(|i| {
            format!(
                "<li><h3><a href=/b/{i}>Book {i}</a></h3><p>{}</p></li>",
                article_prose(12)
            )
        })
        .collect::<String>();
    let out = pruned(&page(&format!(
        "<h1>Harbour plan</h1>{story}<ol>{long}</ol>"
    )));
    assert!(out.contains("Book 4"), "listicle lost:\n{out}");
    let out = pruned(&html.replace("<meta property=\"og:type\" content=\"article\">", ""));
    assert!(out.contains("Other headline number 6"), "{out}");
}

#[test]
fn an_author_box_inside_the_article_is_kept_and_a_sidebar_one_is_not() {
    // IAB's WordPress theme: `<aside class="author">` closing the article (Reader View keeps it).
    let p = article_prose(4);
    let author = "<aside id=\"post-author\" class=\"author container\"><figure><img alt=\"\" \
         src=\"/a.jpg\"></figure><h4>About the author</h4><div><strong>Scott Cunningham</strong>\
         </div><div>Senior Vice President of Technology at IAB</div></aside>";
    let out = pruned(&format!(
        "<body><div class=sidebar><p>Archive</p></div><article><h1>Ad blocking</h1><p>{p}</p>\
         {author}</article></body>"
    ));
    assert!(
        out.contains("dredging costs") && out.contains("Senior Vice President of Technology"),
        "{out}"
    );
    // The same box outside any article or main is the site's widget; so is one inside the
    // article that lists the author's other posts.
    let widget = "<aside class=\"author-widget\"><h4>About the author</h4><ul>\
         <li><a href=\"/p/1\">Older post</a></li></ul></aside>";
    let out = pruned(&format!(
        "<body><div><h1>Ad blocking</h1><p>{p}</p></div>{author}</body>"
    ));
    assert!(!out.contains("Senior Vice President"), "{out}");
    let out = pruned(&format!(
        "<body><article><h1>Ad blocking</h1><p>{p}</p>{widget}</article></body>"
    ));
    assert!(!out.contains("Older post"), "{out}");
}

#[test]
fn an_author_bio_right_after_a_lone_article_is_kept() {
    // The Washington Post closes `</article>` before the author's bio (Reader View keeps it).
    let p = article_prose(4);
    let page = |after: &str| {
        pruned(&format!(
            "<body><div class=sidebar><p>Archive</p></div><div><article><h1>Tunisia</h1>\
             <p>{p}</p></article>{after}<div class=\"share-bar\"><p>Share this</p></div></div>\
             </body>"
        ))
    };
    let bio = "<div class=\"post-body-sig-line\"><a href=\"/people/ec\"><img src=\"/ec.jpg\"></a>\
         <div class=\"post-body-bio has-photo\">Erin Cunningham is an Egypt-based correspondent \
         for The Post.</div><div class=\"clear\"></div></div>";
    let out = page(&format!("<div class=\"clear\"></div><!-- sig -->\n{bio}"));
    assert!(out.contains("dredging costs"), "{out}");
    assert!(
        out.contains("Erin Cunningham is an Egypt-based correspondent"),
        "{out}"
    );
    assert!(out.contains("(/people/ec)"), "{out}");
    assert!(
        !out.contains("Share this") && !out.contains("Archive"),
        "{out}"
    );
    // Not a bio: a box that names none (`biology` is not `bio`), one with a list of the
    // author's other posts, one too long, and one after other text.
    for after in [
        "<div class=\"biology-note\">Erin Cunningham is an Egypt-based correspondent.</div>",
        "<div class=\"author-bio\">Erin Cunningham<ul><li><a href=\"/p/1\">Older post</a></li>\
         </ul></div>",
        &format!("<div class=\"author-bio\">Erin Cunningham {}</div>", "is here. ".repeat(80)),
        "<p>Related coverage</p><div class=\"author-bio\">Erin Cunningham is a correspondent.</div>",
    ] {
        let out = page(after);
        assert!(out.contains("dredging costs"), "{out}");
        assert!(!out.contains("Erin Cunningham"), "{after}: {out}");
    }
}

#[test]
fn a_lead_picture_right_before_a_lone_article_is_kept() {
    // The Washington Post puts the lead picture and its caption (with a named anchor), then
    // the byline, then `<article>` with the story.
    let p = article_prose(4);
    let page = |before: &str| {
        pruned(&format!(
            "<body><div class=sidebar><p>Archive</p></div><div class=\"article-body\">{before}\
             <div class=\"pb-sig-line\">By <a href=\"/people/sm\">Steven Mufson</a></div>\
             <article><p>{p}</p></article></div></body>"
        ))
    };
    let photo = "<div class=\"inline-content inline-photo\"><a name=\"1c16\"></a>\
         <img src=\"/wall.jpg\"><br><span class=\"pb-caption\">Netanyahu visits the Western \
         Wall.</span></div>";
    let out = page(photo);
    let (picture, story) = (out.find("(/wall.jpg)"), out.find("dredging costs"));
    assert!(
        picture.is_some() && story.is_some() && picture < story,
        "{out}"
    );
    assert!(out.contains("Netanyahu visits the Western Wall."), "{out}");
    assert!(!out.contains("Archive"), "{out}");
    // Not a lead picture: one that links somewhere (a promotion), one with a long text, and
    // one further back than three blocks.
    for before in [
        "<div class=\"promo\"><a href=\"/deal\"><img src=\"/wall.jpg\"></a>\
         <span>Netanyahu visits the Western Wall.</span></div>",
        &format!(
            "<div class=\"inline-photo\"><img src=\"/wall.jpg\"><span>{}</span></div>",
            "Netanyahu visits the Western Wall. ".repeat(13)
        ),
        &format!("{photo}<div></div><div></div><div></div>"),
    ] {
        let out = page(before);
        assert!(out.contains("dredging costs"), "{out}");
        assert!(!out.contains("/wall.jpg"), "{before}: {out}");
    }
}

#[test]
fn an_element_of_the_utility_class_hidden_is_dropped_unless_a_variant_shows_it() {
    // BuzzFeed's comments section (`section.section.hidden`) and NYT's "Supported by" label:
    // Bootstrap's and Tailwind's `hidden` is `display:none`.
    let p = article_prose(4);
    let page = |class: &str| {
        pruned(&format!(
            "<body><article><h1>Diet pills</h1><p>{p}</p><section class=\"{class}\">\
             <div class=\"headline-1\">Facebook Conversations</div></section></article></body>"
        ))
    };
    let out = page("section hidden");
    assert!(out.contains("dredging costs"), "{out}");
    assert!(!out.contains("Facebook Conversations"), "{out}");
    // Shown: Tailwind's `hidden md:block` (visible on wider screens), and names that only
    // hold the word (`hidden-xs`, `overflow-hidden`).
    for class in ["hidden md:block", "hidden-xs", "overflow-hidden"] {
        let out = page(class);
        assert!(out.contains("Facebook Conversations"), "{class}: {out}");
    }
}

#[test]
fn what_follows_a_storys_article_inside_its_main_goes() {
    // Folha de S.Paulo: `<main>` holds the headline block, `article#c-news` with the story,
    // then "Mais lidas" and "Principais do dia", headline teasers with short standfirsts.
    // The headline block before the article and the author's bio after it stay.
    let p = article_prose(6);
    let teasers: String = (1..=3)
        .map(|i| {
            format!(
                "<div class=c-headline><a href=/t/{i}><img src=/t{i}.jpg alt=\"\"></a>\
                 <h3><a href=/topic/{i}>Topic {i}</a></h3><h2><a href=/t/{i}>Teaser \
                 headline {i}</a></h2><p>A short standfirst for teaser {i}.</p></div>"
            )
        })
        .collect();
    let page = |head: &str, story: &str, after: &str| {
        pruned(&format!(
            "<html><head>{head}</head><body><main><header><h1>Harbour plan</h1>\
             <h2>Dredging starts in spring</h2></header><div class=wrap>{story}</div>\
             {after}<div class=block><h4>Principais do dia</h4>{teasers}</div></main>\
             </body></html>"
        ))
    };
    let declared = "<meta property=\"og:type\" content=\"article\">";
    let story = format!("<article><p>{p}</p><p>{p}</p><p>{p}</p></article>");
    let bio = "<div class=sig><div class=\"post-body-bio\">Ana Souza covers the port.</div></div>";
    let out = page(declared, &format!("{story}{bio}"), "");
    assert_eq!(out.matches("dredging costs").count(), 18, "{out}");
    assert!(out.contains("Dredging starts in spring"), "{out}");
    assert!(out.contains("Ana Souza covers the port."), "{out}");
    assert!(
        !out.contains("Teaser headline") && !out.contains("Principais do dia"),
        "{out}"
    );
    // Kept: on a page that does not declare itself an article, beside a second article,
    // after a story paragraph outside the article, and beside an article too short to be
    // the story.
    for (head, story, after) in [
        ("", story.clone(), ""),
        (
            declared,
            format!("{story}<article><p>Note</p></article>"),
            "",
        ),
        (declared, story.clone(), &*format!("<p>{p}{p}</p>")),
        (declared, format!("<article><p>{p}</p></article>"), ""),
    ] {
        let out = page(head, &story, after);
        assert!(out.contains("dredging costs"), "{out}");
        assert!(out.contains("Teaser headline 3"), "{story}{after}: {out}");
    }
    // Kept too when the article itself went as boilerplate: the page keeps the rest of
    // its `<main>` rather than its headline alone.
    let out = page(declared, &format!("<aside>{story}</aside>"), "");
    assert!(out.contains("Teaser headline 3"), "{out}");
}
