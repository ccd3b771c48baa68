//! `ParamId`'s text form is Burn 0.23's: base32 (extended hex, lower case, unpadded) of the
//! id's little-endian bytes. Expected strings from Python's `base64.b32hexencode`.

use burn_core::module::ParamId;
use std::str::FromStr;

#[test]
fn param_ids_print_and_parse_as_in_burn() {
    for (value, text) in [
        (1u64, "0400000000000"),
        (0x0123_4567_89ab_cdef, "tv6qn2b78khg2"),
        (u64::MAX, "vvvvvvvvvvvvu"),
    ] {
        let id = ParamId::from(value);
        assert_eq!(id.to_string(), text);
        assert_eq!(ParamId::from_str(text), Ok(id));
        assert_eq!(ParamId::from_str(&text.to_uppercase()), Ok(id));
    }
    let fresh = ParamId::new();
    assert_eq!(ParamId::from_str(&fresh.to_string()), Ok(fresh));
}

#[test]
fn malformed_param_ids_are_refused() {
    // A character outside the alphabet, a length that holds no whole bytes, non-zero spare
    // bits, more than 8 bytes.
    for text in [
        "",
        "040000000000w",
        "040",
        "0400000000001",
        "04000000000000000000",
    ] {
        assert_eq!(ParamId::from_str(text), Err("Invalid id."), "{text:?}");
    }
}
