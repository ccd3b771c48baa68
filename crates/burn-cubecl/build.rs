//! With a CubeCL runtime that links LLVM (features `cpu`, `cuda`, `rocm`): fails at once, naming
//! the install step, when the LLVM SDK is not where cubecl's `tracel-llvm-bundler` reads it
//! (otherwise the bundler tries to download LLVM from GitHub, and machines without that access
//! fail deep in a dependency's build script). The folder and marker are the bundler's
//! (23.1.0-4, cubecl 0.11.3); `cargo xtask llvm` puts an SDK there.

use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-env-changed=XDG_DATA_HOME");
    let llvm_features = ["CPU", "CUDA", "ROCM"];
    let wanted: Vec<&str> = llvm_features
        .into_iter()
        .filter(|f| std::env::var_os(format!("CARGO_FEATURE_{f}")).is_some())
        .collect();
    if wanted.is_empty() {
        return;
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")));
    let Some(data) = data else {
        return; // The bundler cannot place LLVM either; let it say so.
    };
    let marker = data.join("tracel/tracel-llvm-23.1.0-4/.tracel-llvm-installed");
    println!("cargo::rerun-if-changed={}", marker.display());
    if !marker.exists() {
        let features = wanted.join(", ").to_lowercase();
        eprintln!(
            "burn-cubecl: the feature(s) {features} link LLVM 23 (cubecl-llvm), and no LLVM SDK \
             is installed at {}.\nRun `cargo xtask llvm` (it installs a pinned static LLVM 23.1 \
             SDK from PyPI there), then build again.",
            marker
                .parent()
                .map(|p| p.display().to_string())
                .unwrap_or_default()
        );
        std::process::exit(1);
    }
}
