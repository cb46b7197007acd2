//! Embedded media: iframes, video and audio become links to what they play; a video with
//! nothing to play keeps the image a browser shows for it, its poster frame.
use pulldown_cmark::{Event, LinkType, Parser, Tag};

mod common;
use common::md;

/// Every image as a CommonMark reader sees it: (destination, whether it sits in a link).
fn images(md: &str) -> Vec<(String, bool)> {
    let mut links = 0usize;
    let mut out = Vec::new();
    for event in Parser::new(md) {
        match event {
            Event::Start(Tag::Link { .. }) => links += 1,
            Event::End(pulldown_cmark::TagEnd::Link) => links = links.saturating_sub(1),
            Event::Start(Tag::Image {
                link_type: LinkType::Inline,
                dest_url,
                ..
            }) => out.push((dest_url.to_string(), links > 0)),
            _ => {}
        }
    }
    out
}

#[test]
fn a_video_without_a_source_keeps_its_poster_image() {
    let out = md(
        r#"<p>Before <video poster="/media/frame.jpg">Your browser cannot play this.</video> after.</p>"#,
    );
    assert_eq!(
        images(&out),
        [("/media/frame.jpg".to_owned(), false)],
        "{out}"
    );
    assert!(out.contains("Before ![Video]("), "{out}");
    assert!(
        !out.contains("browser cannot play"),
        "fallback text stays hidden: {out}"
    );

    // The title goes into the alt text, escaped.
    let out = md(r#"<video poster="p.jpg" title="Harbour [timelapse]"></video>"#);
    assert!(out.contains(r"![Video: Harbour \[timelapse\]]("), "{out}");

    // Inside a link the image is the link's content.
    let out = md(r#"<a href="/watch"><video poster="/p.jpg"></video></a>"#);
    assert_eq!(images(&out), [("/p.jpg".to_owned(), true)], "{out}");
}

#[test]
fn a_playable_video_is_a_link_and_unsafe_or_empty_posters_are_dropped() {
    // With something to play, the link to it (not the poster) as before.
    let out = md(r#"<video src="/v.mp4" poster="/p.jpg"></video>"#);
    assert!(out.contains("[Video](/v.mp4)"), "{out}");
    assert!(images(&out).is_empty(), "{out}");
    for poster in ["javascript:alert(1)", " ", "", "JaVaScRiPt&colon;alert(1)"] {
        let out = md(&format!(r#"<p>a<video poster="{poster}"></video>b</p>"#));
        assert!(images(&out).is_empty(), "{poster:?}: {out}");
        assert!(!out.to_ascii_lowercase().contains("javascript"), "{out}");
    }
    // Audio has no poster.
    let out = md(r#"<audio poster="/p.jpg"></audio>"#);
    assert!(images(&out).is_empty(), "{out}");
}

#[test]
fn a_link_around_an_image_and_emphasis_keeps_its_destination_byte_for_byte() {
    // The writer's delimiter pass read a link's destination as text when the link's text
    // held an image: a `_`, `*` or `~` there went as an unpaired emphasis marker, which
    // broke `/a_b` links and turned `java_script:` (no scheme, so a relative link) into
    // `javascript:` (engine_convert fuzzer).
    for href in [
        "/photos/harbour_at_dawn",
        "java_script:alert(1)",
        "java*script:x",
        "/a~b",
    ] {
        let out = md(&format!(
            "<p><a href=\"{href}\"><img src=\"/t.png\" alt=\"\"> <b>Harbour</b> <i>at</i> dawn</a></p>"
        ));
        let dests: Vec<String> = Parser::new(&out)
            .filter_map(|ev| match ev {
                Event::Start(Tag::Link { dest_url, .. }) => Some(dest_url.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(dests, [href], "{out}");
        assert!(out.contains("**Harbour** _at_ dawn"), "{out}");
    }
}
