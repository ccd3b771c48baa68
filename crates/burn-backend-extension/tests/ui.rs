//! The compile errors of `#[backend_extension]` as users see them, pinned with trybuild
//! (`tests/ui/*.stderr`). Refresh after an intended change with `TRYBUILD=overwrite`.
//!
//! The cases declare stand-ins for `Backend` and the tensor aliases, so they compile only
//! this crate: the errors come from the macro, before any name is resolved.

#[test]
fn compile_errors() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
