//! The two models: a multilayer perceptron and a small convolutional network, each a
//! classifier with its training and validation steps.

use crate::data::{CLASSES, DigitBatch, PIXELS};
use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::loss::CrossEntropyLossConfig;
use burn::nn::pool::{MaxPool2d, MaxPool2dConfig};
use burn::nn::{Dropout, DropoutConfig, Linear, LinearConfig, PaddingConfig2d, Relu};
use burn::tensor::{Device, Tensor};
use burn::train::{ClassificationOutput, TrainOutput, TrainStep, ValidStep};

/// 64 → 128 → 10 with ReLU and dropout.
#[derive(Module, Debug)]
pub struct Mlp {
    hidden: Linear,
    dropout: Dropout,
    output: Linear,
    activation: Relu,
}

impl Mlp {
    /// A freshly initialized MLP on `device`.
    pub fn new(device: &Device) -> Self {
        Self {
            hidden: LinearConfig::new(PIXELS, 128).init(device),
            dropout: DropoutConfig::new(0.1).init(),
            output: LinearConfig::new(128, CLASSES).init(device),
            activation: Relu::new(),
        }
    }

    /// Logits `[batch, 10]` of images `[batch, 64]`.
    pub fn forward(&self, images: Tensor<2>) -> Tensor<2> {
        let x = self.activation.forward(self.hidden.forward(images));
        self.output.forward(self.dropout.forward(x))
    }
}

/// Two 3x3 convolutions (16 and 32 channels, same padding), a 2x2 max pool, then
/// 512 → 64 → 10.
#[derive(Module, Debug)]
pub struct Cnn {
    conv1: Conv2d,
    conv2: Conv2d,
    pool: MaxPool2d,
    dropout: Dropout,
    hidden: Linear,
    output: Linear,
    activation: Relu,
}

impl Cnn {
    /// A freshly initialized CNN on `device`.
    pub fn new(device: &Device) -> Self {
        let conv = |channels: [usize; 2]| {
            Conv2dConfig::new(channels, [3, 3])
                .with_padding(PaddingConfig2d::Same)
                .init(device)
        };
        Self {
            conv1: conv([1, 16]),
            conv2: conv([16, 32]),
            pool: MaxPool2dConfig::new([2, 2]).init(),
            dropout: DropoutConfig::new(0.1).init(),
            hidden: LinearConfig::new(32 * 4 * 4, 64).init(device),
            output: LinearConfig::new(64, CLASSES).init(device),
            activation: Relu::new(),
        }
    }

    /// Logits `[batch, 10]` of images `[batch, 64]`.
    pub fn forward(&self, images: Tensor<2>) -> Tensor<2> {
        let batch = images.dims()[0];
        let x = images.reshape([batch, 1, 8, 8]);
        let x = self.activation.forward(self.conv1.forward(x));
        let x = self.activation.forward(self.conv2.forward(x));
        let x = self.pool.forward(x).reshape([batch, 32 * 4 * 4]);
        let x = self
            .activation
            .forward(self.hidden.forward(self.dropout.forward(x)));
        self.output.forward(x)
    }
}

/// The training and validation steps of a classifier with a `forward(images) -> logits`.
macro_rules! classifier_steps {
    ($($model:ty),*) => {$(
        impl $model {
            /// The logits and the cross-entropy loss of a batch.
            pub fn forward_classification(&self, batch: DigitBatch) -> ClassificationOutput {
                let logits = self.forward(batch.images);
                let loss = CrossEntropyLossConfig::new()
                    .init(&logits.device())
                    .forward(logits.clone(), batch.targets.clone());
                ClassificationOutput::new(loss, logits, batch.targets)
            }
        }

        impl TrainStep<DigitBatch, ClassificationOutput> for $model {
            fn step(&self, batch: DigitBatch) -> TrainOutput<ClassificationOutput> {
                let item = self.forward_classification(batch);
                let grads = item.loss.backward();
                TrainOutput::new(self, grads, item)
            }
        }

        impl ValidStep<DigitBatch, ClassificationOutput> for $model {
            fn step(&self, batch: DigitBatch) -> ClassificationOutput {
                self.forward_classification(batch)
            }
        }
    )*};
}

classifier_steps!(Mlp, Cnn);
