//! The book's "Backend extensions" chapter shows this example's code: every
//! `rust,ignore` block there whose first line names a file of this example
//! (`// examples/custom-op/src/ops.rs`) must appear, verbatim, in that file.

use std::path::Path;

#[test]
fn the_book_chapter_quotes_the_compiled_sources() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let chapter = std::fs::read_to_string(root.join("burn-book/src/extensions.md"))
        .expect("burn-book/src/extensions.md");
    let mut quoted = 0;
    for block in chapter.split("```rust,ignore\n").skip(1) {
        let block = block.split("\n```").next().unwrap();
        let Some((first, code)) = block.split_once('\n') else {
            continue;
        };
        let Some(path) = first.strip_prefix("// examples/custom-op/") else {
            continue;
        };
        let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
            .unwrap_or_else(|e| panic!("the chapter quotes {path}: {e}"));
        assert!(
            source.contains(code),
            "the chapter's block from {path} is no longer in the file:\n{code}"
        );
        quoted += 1;
    }
    assert!(
        quoted >= 5,
        "expected the chapter to quote the example, found {quoted} blocks"
    );
}
