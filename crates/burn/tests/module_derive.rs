//! A custom module written the way a Burn 0.23 user writes one: `#[derive(Module, Debug)]` (the
//! derive gives `Clone` and `Display`), a `#[module(skip)]` field carried along unvisited.

use burn::module::Module;
use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;

/// Settings kept with the model but not part of it (not a module: no `Module` impl).
#[derive(Clone, Debug, PartialEq)]
struct Settings {
    label: String,
    threshold: f32,
}

#[derive(Module, Debug)]
struct Mlp {
    hidden: Linear,
    activation: Relu,
    output: Linear,
    #[module(skip)]
    settings: Settings,
}

impl Mlp {
    fn new(device: &Device) -> Self {
        Self {
            hidden: LinearConfig::new(4, 3).init(device),
            activation: Relu::new(),
            output: LinearConfig::new(3, 2).init(device),
            settings: Settings {
                label: "mlp".into(),
                threshold: 0.5,
            },
        }
    }

    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        self.output
            .forward(self.activation.forward(self.hidden.forward(x)))
    }
}

#[test]
fn the_derive_gives_clone_and_a_clone_computes_the_same() {
    let device = Device::default();
    let model = Mlp::new(&device);
    let copy = model.clone();
    let x = Tensor::<2>::ones([5, 4], &device);
    let (a, b) = (model.forward(x.clone()), copy.forward(x));
    assert_eq!(
        a.into_data().try_to_vec::<f32>().unwrap(),
        b.into_data().try_to_vec::<f32>().unwrap()
    );
    assert_eq!(copy.settings, model.settings);
}

#[test]
fn skipped_fields_are_not_parameters_and_survive_a_map() {
    let device = Device::default();
    let model = Mlp::new(&device);
    // 4*3 + 3 + 3*2 + 2 parameters; the skipped field adds none.
    assert_eq!(model.num_params(), 23);
    let moved = model.to_device(&device);
    assert_eq!(moved.settings.label, "mlp");
    assert_eq!(moved.settings.threshold, 0.5);
}

#[test]
fn display_shows_the_tree_with_shapes() {
    let model = Mlp::new(&Device::default());
    let text = model.to_string();
    assert!(text.starts_with("Mlp {"), "{text}");
    assert!(text.contains("hidden {"), "{text}");
    assert!(text.contains("weight: [4, 3]"), "{text}");
    assert!(text.contains("bias: [2]"), "{text}");
    assert!(
        !text.contains("settings"),
        "skipped fields are not shown: {text}"
    );
    assert!(text.ends_with("params: 23"), "{text}");
}
