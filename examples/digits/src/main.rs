//! The main job: trains a multilayer perceptron and a small CNN on the UCI optical digits
//! (1797 8x8 images, 80/20 split, fixed seed) with autodiff, prints per-epoch metrics,
//! writes `weights.bpk` (burnpack, Burn 0.23's format), `history.json` and `training.png`
//! per model, and with `--eval` reloads the weights in a fresh process and reports the validation accuracy again.
//!
//! ```text
//! cargo run --release -p digits                     # train both models on the default device
//! cargo run --release -p digits -- --model cnn --epochs 20 --device flex
//! cargo run --release -p digits -- --eval           # reload and evaluate
//! cargo run --release -p digits --features wgpu -- --device wgpu   # on WGPU (GPU or lavapipe)
//! ```

mod data;
mod model;
mod run;

use burn::tensor::Device;
use std::path::PathBuf;

/// The command line.
#[derive(Debug)]
struct Args {
    device: Device,
    models: Vec<run::ModelKind>,
    epochs: Option<usize>,
    eval: bool,
    artifacts: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        device: Device::default(),
        models: vec![run::ModelKind::Mlp, run::ModelKind::Cnn],
        epochs: None,
        eval: false,
        artifacts: PathBuf::from("artifacts/digits"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--device" => args.device = device_named(&value("--device")?)?,
            "--model" => {
                args.models = match value("--model")?.as_str() {
                    "mlp" => vec![run::ModelKind::Mlp],
                    "cnn" => vec![run::ModelKind::Cnn],
                    "all" => vec![run::ModelKind::Mlp, run::ModelKind::Cnn],
                    other => {
                        return Err(format!("--model: expected mlp, cnn or all, got {other:?}"));
                    }
                }
            }
            "--epochs" => {
                let text = value("--epochs")?;
                args.epochs = Some(
                    text.parse()
                        .map_err(|_| format!("--epochs: {text:?} is not a count"))?,
                );
            }
            "--artifacts" => args.artifacts = PathBuf::from(value("--artifacts")?),
            "--eval" => args.eval = true,
            "--help" | "-h" => {
                return Err(
                    "usage: digits [--device flex|wgpu|cuda|cpu] [--model mlp|cnn|all] \
                            [--epochs N] [--artifacts DIR] [--eval]"
                        .into(),
                );
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(args)
}

/// The device a name on the command line stands for: `flex` (the native CPU backend), `wgpu` in
/// a build with the `wgpu` feature (the CubeCL backend on the best WGPU adapter: a GPU, else a
/// software one such as Mesa's lavapipe), `cuda` with the `cuda` feature (GPU 0), `cpu` with the
/// `cpu` feature (the CubeCL backend on CubeCL's CPU runtime; Flex is the native one).
fn device_named(name: &str) -> Result<Device, String> {
    match name.to_ascii_lowercase().as_str() {
        "flex" => Ok(Device::flex()),
        #[cfg(feature = "wgpu")]
        "wgpu" | "cube" => Ok(Device::cube_default()),
        #[cfg(feature = "cuda")]
        "cuda" => Device::try_cuda(0).map_err(|err| format!("--device cuda: {err}")),
        #[cfg(feature = "cpu")]
        "cpu" => Device::try_cpu().map_err(|err| format!("--device cpu: {err}")),
        _ => {
            let mut names = vec!["flex"];
            if cfg!(feature = "wgpu") {
                names.push("wgpu");
            }
            if cfg!(feature = "cuda") {
                names.push("cuda");
            }
            if cfg!(feature = "cpu") {
                names.push("cpu");
            }
            Err(format!(
                "--device {name}: not compiled into this build (available: {names:?}; build \
                 with `--features wgpu`, `cuda` or `cpu` for those devices)"
            ))
        }
    }
}

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    println!("device: {} ({:?})", args.device, args.device);
    for kind in &args.models {
        let result = if args.eval {
            run::evaluate(*kind, &args.device, &args.artifacts)
        } else {
            run::train(*kind, &args.device, args.epochs, &args.artifacts)
        };
        if let Err(message) = result {
            eprintln!("{kind:?}: {message}");
            std::process::exit(1);
        }
    }
}
