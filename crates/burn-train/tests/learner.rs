//! The learner end to end on a tiny classifier: metrics per epoch, checkpoints, history and
//! chart files, and a model that actually learns.

use burn_core as burn;

use burn::module::{Module, Param};
use burn::tensor::{Device, Int, Tensor, TensorData, activation::log_softmax};
use burn_data::dataloader::{DataLoaderBuilder, batcher::Batcher};
use burn_data::dataset::InMemDataset;
use burn_optim::AdamConfig;
use burn_train::{
    ClassificationOutput, LearnerBuilder, MetricHistory, TrainOutput, TrainStep, ValidStep,
};

/// Two Gaussian-ish blobs in 2-d, labelled by the sign of x + y.
fn items(count: usize, offset: usize) -> Vec<([f32; 2], i64)> {
    (0..count)
        .map(|i| {
            let t = (i + offset) as f32;
            let (x, y) = ((t * 0.37).sin() * 2.0, (t * 0.71).cos() * 2.0);
            ([x, y], i64::from(x + y > 0.0))
        })
        .collect()
}

#[derive(Clone)]
struct PairBatcher;

impl Batcher<([f32; 2], i64), (Tensor<2>, Tensor<1, Int>)> for PairBatcher {
    fn batch(&self, items: Vec<([f32; 2], i64)>, device: &Device) -> (Tensor<2>, Tensor<1, Int>) {
        let len = items.len();
        let xs: Vec<f32> = items.iter().flat_map(|(x, _)| *x).collect();
        let ys: Vec<i64> = items.iter().map(|(_, y)| *y).collect();
        (
            Tensor::from_data(TensorData::new(xs, [len, 2]), device),
            Tensor::from_data(TensorData::new(ys, [len]), device),
        )
    }
}

#[derive(Module, Debug)]
struct Logistic {
    weight: Param<Tensor<2>>,
    bias: Param<Tensor<1>>,
}

impl Logistic {
    fn classify(&self, (x, y): (Tensor<2>, Tensor<1, Int>)) -> ClassificationOutput {
        let logits = x.matmul(self.weight.val()) + self.bias.val().unsqueeze();
        let batch = y.dims()[0];
        let picked = log_softmax(logits.clone(), 1).gather(1, y.clone().reshape([batch, 1]));
        let loss = -picked.mean();
        ClassificationOutput::new(loss, logits, y)
    }
}

impl TrainStep<(Tensor<2>, Tensor<1, Int>), ClassificationOutput> for Logistic {
    fn step(&self, batch: (Tensor<2>, Tensor<1, Int>)) -> TrainOutput<ClassificationOutput> {
        let item = self.classify(batch);
        TrainOutput::new(self, item.loss.backward(), item)
    }
}

impl ValidStep<(Tensor<2>, Tensor<1, Int>), ClassificationOutput> for Logistic {
    fn step(&self, batch: (Tensor<2>, Tensor<1, Int>)) -> ClassificationOutput {
        self.classify(batch)
    }
}

fn fresh_model(device: &Device) -> Logistic {
    Logistic {
        weight: Param::from_tensor(Tensor::zeros([2, 2], device)),
        bias: Param::from_tensor(Tensor::zeros([2], device)),
    }
}

type Loader = burn_data::dataloader::DataLoader<([f32; 2], i64), (Tensor<2>, Tensor<1, Int>)>;

fn loaders(device: &Device) -> (Loader, Loader) {
    let train = DataLoaderBuilder::new(PairBatcher)
        .batch_size(16)
        .shuffle(3)
        .set_device(device.clone())
        .build(InMemDataset::new(items(256, 0)));
    let valid = DataLoaderBuilder::new(PairBatcher)
        .batch_size(64)
        .set_device(device.clone())
        .build(InMemDataset::new(items(64, 1000)));
    (train, valid)
}

#[test]
fn the_learner_trains_and_writes_its_artifacts() {
    let device = Device::flex();
    let model = fresh_model(&device.autodiff());
    let (train, valid) = loaders(&device);
    let dir = std::env::temp_dir().join(format!("burn-train-test-{}", std::process::id()));
    let result = LearnerBuilder::new(&dir)
        .num_epochs(4)
        .checkpoint(2)
        .with_progress(false)
        .with_log(false)
        .build(model, AdamConfig::new().init(), 0.05)
        .fit(&train, &valid)
        .unwrap();

    let history = &result.history;
    assert_eq!(history.epochs.len(), 4);
    let first = &history.epochs[0];
    let last = history.last().unwrap();
    assert!(last.train_loss < first.train_loss, "{first} -> {last}");
    assert!(last.valid_accuracy.unwrap() > 90.0, "{last}");
    assert!((last.learning_rate - 0.05).abs() < 1e-12);
    // The trained model is still on the autodiff device, trainable.
    assert!(result.model.weight.val().is_require_grad());

    for epoch in [2, 4] {
        let path = dir
            .join("checkpoint")
            .join(format!("model-{epoch}.safetensors"));
        assert!(path.is_file(), "{} missing", path.display());
    }
    let saved =
        MetricHistory::from_json(&std::fs::read_to_string(dir.join("history.json")).unwrap())
            .unwrap();
    assert_eq!(&saved, history);
    let chart = std::fs::read(result.chart.unwrap()).unwrap();
    assert_eq!(&chart[..8], b"\x89PNG\r\n\x1a\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_resumed_run_continues_exactly_where_the_checkpoint_left_off() {
    let device = Device::flex();
    let (train, valid) = loaders(&device);
    let dir = std::env::temp_dir().join(format!("burn-train-resume-{}", std::process::id()));
    let learner = |model| {
        LearnerBuilder::new(&dir)
            .num_epochs(4)
            .checkpoint(2)
            .with_progress(false)
            .with_log(false)
            .with_chart(false)
            .build(model, AdamConfig::new().init(), 0.05)
    };
    let full = learner(fresh_model(&device.autodiff()))
        .fit(&train, &valid)
        .unwrap();
    // A fresh model (new parameter ids) resumed from epoch 2: weights, Adam moments and the
    // history come back, and the last two epochs replay identically.
    let resumed = LearnerBuilder::new(&dir)
        .num_epochs(4)
        .resume(2)
        .with_progress(false)
        .with_log(false)
        .with_chart(false)
        .build(
            fresh_model(&device.autodiff()),
            AdamConfig::new().init(),
            0.05,
        )
        .fit(&train, &valid)
        .unwrap();
    let values = |m: &Logistic| m.weight.val().into_data().to_vec::<f32>().unwrap();
    assert_eq!(values(&resumed.model), values(&full.model));
    assert_eq!(resumed.history.epochs.len(), 4);
    for (a, b) in full.history.epochs.iter().zip(&resumed.history.epochs) {
        assert_eq!(a.train_loss, b.train_loss);
        assert_eq!(a.valid_accuracy, b.valid_accuracy);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
