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
    assert!(text.starts_with("Mlp {\n  hidden: Linear {"), "{text}");
    assert!(
        text.contains("weight: ParamTensor {rank: 2, shape: [4, 3], kind: float}"),
        "{text}"
    );
    assert!(text.contains("activation: Relu"), "{text}");
    assert!(
        text.contains("settings: Settings { label: \"mlp\", threshold: 0.5 }"),
        "skipped fields show with Debug: {text}"
    );
    assert!(text.ends_with("  params: 23\n}"), "{text}");
}

/// A layer that chooses what it shows, as Burn's own layers do.
#[derive(Module, Debug)]
#[module(custom_display)]
struct Scaled {
    inner: Linear,
    factor: f64,
}

impl burn::module::ModuleDisplay for Scaled {
    fn custom_settings(&self) -> Option<burn::module::DisplaySettings> {
        burn::module::DisplaySettings::new()
            .with_new_line_after_attribute(false)
            .optional()
    }

    fn custom_content(&self, content: burn::module::Content) -> Option<burn::module::Content> {
        content.add("factor", &self.factor).optional()
    }
}

#[test]
fn custom_display_replaces_the_derived_content() {
    let scaled = Scaled {
        inner: LinearConfig::new(2, 2).init(&Device::default()),
        factor: 0.5,
    };
    assert_eq!(scaled.to_string(), "Scaled {factor: 0.5, params: 6}");
}
