//! Printing tensors, and the process-wide print options, written as a Burn 0.23 user writes.
//! One test function: the options are global to the process.

use burn::tensor::{Device, Int, PrintOptions, Tensor, set_print_options};

#[test]
fn tensors_print_their_values_and_follow_the_print_options() {
    let device = Device::default();
    let x = Tensor::<2>::from_floats([[1.0, 2.5], [3.0, 4.25]], &device);
    let text = format!("{x}");
    assert!(text.contains("[[1.0, 2.5],\n [3.0, 4.25]]"), "{text}");
    assert!(text.contains("shape:  [2, 2]"), "{text}");
    assert!(text.contains("kind:  \"Float\""), "{text}");
    assert!(format!("{x:.1}").contains("[[1.0, 2.5],\n [3.0, 4.2]]"));

    // Below the threshold nothing is summarized; above it long dims keep their edges.
    let long = Tensor::<1, Int>::arange(0..20, &device);
    assert!(!format!("{long}").contains("..."));
    set_print_options(PrintOptions {
        threshold: 10,
        edge_items: 2,
        precision: Some(3),
    });
    let text = format!("{long}");
    assert!(text.contains("[0, 1, ..., 18, 19]"), "{text}");
    assert!(
        format!("{x}").contains("[[1.000, 2.500],"),
        "precision applies to floats"
    );
    set_print_options(PrintOptions::default());
    assert!(format!("{long}").contains("19]"));
    assert!(!format!("{long}").contains("..."));
}
