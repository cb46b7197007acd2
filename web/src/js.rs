//! wasm-bindgen glue: JS values in, plain JS objects out. Every failure is a thrown
//! `TypeError` with a message naming what was wrong; nothing here can panic.

use js_sys::{Object, TypeError, Uint8Array};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::{ConvertOptions, Html};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** Options for {@link convert}. Every key is optional; unknown keys throw a TypeError. */
export interface ConvertOptions {
  /** Absolute http(s) URL of the page: relative links and images resolve against it
   *  (after any `<base href>`), and it is the front matter `url` when the page names none. */
  baseUrl?: string;
  /** The response's Content-Type header value. Only its `charset` is used, and only for
   *  `Uint8Array` input (a string is already decoded text). */
  contentType?: string;
  /** Emit YAML front matter (title, description, url, lang, image, author, published).
   *  Default `true`. */
  frontMatter?: boolean;
  /** Keep only the main content, dropping navigation, banners, footers. Default `true`. */
  prune?: boolean;
}

/** The result of {@link convert}. */
export interface ConvertResult {
  /** GitHub-flavoured Markdown, ending with one newline (empty for an empty document). */
  markdown: string;
  /** Estimated LLM tokens of `markdown` (o200k_base estimate). */
  tokens: number;
  /** Strong ETag of the UTF-8 Markdown bytes, quoted: `"` + 32 hex digits + `"`. */
  etag: string;
  /** The document title, or `null`. */
  title: string | null;
  /** The encoding the input was decoded from (WHATWG name; `UTF-8` for string input). */
  encoding: string;
}
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "string | Uint8Array")]
    pub type HtmlInput;
    #[wasm_bindgen(typescript_type = "ConvertOptions")]
    pub type ConvertOptionsInput;
    #[wasm_bindgen(typescript_type = "ConvertResult")]
    pub type ConvertResultOutput;
}

/// Convert an HTML document to GitHub-flavoured Markdown.
///
/// `html` is a string (decoded text, always read as UTF-8) or a `Uint8Array` of the page's
/// bytes (decoded like the Envoy filter does: BOM, `contentType` charset, `<meta>`, UTF-8).
/// Throws a `TypeError` for an `html` of another type or for invalid options; any HTML,
/// however malformed, converts.
#[wasm_bindgen]
pub fn convert(
    html: &HtmlInput,
    options: Option<ConvertOptionsInput>,
) -> Result<ConvertResultOutput, JsValue> {
    let options = parse_options(options)?;
    let result = if let Some(text) = html.as_string() {
        crate::convert(Html::Text(&text), &options)
    } else if let Some(bytes) = html.dyn_ref::<Uint8Array>() {
        crate::convert(Html::Bytes(&bytes.to_vec()), &options)
    } else {
        return Err(type_error("html must be a string or a Uint8Array"));
    };
    let result = result.map_err(|e| type_error(&format!("invalid options: {e}")))?;
    // `title: null` rather than a missing key, as the TypeScript type says.
    let serializer = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);
    result
        .serialize(&serializer)
        .map(JsCast::unchecked_into)
        .map_err(|e| type_error(&format!("cannot return the result: {e}")))
}

/// The engine's token estimate (o200k_base) for any text, e.g. the HTML a page costs.
#[wasm_bindgen(js_name = estimateTokens)]
pub fn estimate_tokens(text: &str) -> f64 {
    // Exact: an estimate is far below 2^53 for any string a JS engine can hold.
    crate::estimate_tokens(text) as f64
}

fn parse_options(options: Option<ConvertOptionsInput>) -> Result<ConvertOptions, JsValue> {
    let Some(options) = options else {
        return Ok(ConvertOptions::default());
    };
    let options: JsValue = options.into();
    if options.is_object() {
        let keys = Object::keys(options.unchecked_ref::<Object>());
        ConvertOptions::check_keys(keys.iter().filter_map(|k| k.as_string()))
            .map_err(|e| type_error(&format!("invalid options: {e}")))?;
    }
    serde_wasm_bindgen::from_value(options).map_err(|e| {
        // Its Display is the JS error's toString(): drop the redundant "Error: ".
        let message = e.to_string();
        let message = message.strip_prefix("Error: ").unwrap_or(&message);
        type_error(&format!("invalid options: {message}"))
    })
}

fn type_error(message: &str) -> JsValue {
    TypeError::new(&format!("agent-markdown: {message}")).into()
}
