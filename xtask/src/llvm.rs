//! `cargo xtask llvm`: the LLVM SDK that CubeCL's LLVM-linked runtimes (`cpu`, `cuda`, `rocm`)
//! build against, installed from PyPI, pinned by version and sha256.
//!
//! cubecl 0.11's `cubecl-llvm` links a static LLVM 23 that `tracel-llvm-bundler` downloads
//! from GitHub at build time, which machines without that network access cannot do. The
//! bundler skips its download when its folder (`<data>/tracel/tracel-llvm-23.1.0-4`, `<data>`
//! being `$XDG_DATA_HOME` or `~/.local/share`) holds the marker `.tracel-llvm-installed`, and
//! then asks `bin/llvm-config` there how to link. PyPI's `mlc-llvm-static` wheels are a
//! relocatable static LLVM 23.1 SDK with such an `llvm-config` (the x86 target, and NVPTX,
//! AMDGPU and others in the `-extra-targets` wheel). This step installs them with pip into
//! `<data>/burn/llvm-sdk-<version>` (no Python package is installed anywhere else), links the
//! bundler's folder to the SDK and writes the marker. It is idempotent: a second run checks the
//! SDK and does nothing else.
//!
//! The SDK links statically against the system's zlib and zstd (`-lz -lzstd`): their
//! development packages are installed with apt-get when missing and this runs as root.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The version of the SDK wheels.
const SDK_VERSION: &str = "23.1.1.post0";

/// The wheels (PyPI name, sha256 of the manylinux x86-64 wheel of [`SDK_VERSION`]).
const WHEELS: &[(&str, &str)] = &[
    (
        "mlc-llvm-static",
        "dcfec888abfaa418be77d41af585805f31463584cf9c90582992c00f392c1ac5",
    ),
    (
        "mlc-llvm-static-extra-targets",
        "c36e834d9a4e9cf9759f27fece65711ece7a2fc2b5a96dbb15d66f5e9e787929",
    ),
];

/// The folder `tracel-llvm-bundler` 23.1.0-4 (cubecl-llvm 0.11.3's) reads LLVM from, under the
/// data folder.
pub const BUNDLER_FOLDER: &str = "tracel/tracel-llvm-23.1.0-4";

/// The marker that tells the bundler its folder is complete.
pub const BUNDLER_MARKER: &str = ".tracel-llvm-installed";

/// The LLVM major version `llvm-config --version` must report.
const LLVM_MAJOR: &str = "23";

/// Installs the SDK where it is missing (see the module's doc) and checks it.
pub fn install() -> Result<(), String> {
    if !cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        return Err(
            "the pinned LLVM SDK wheels are for x86-64 Linux; on other hosts let \
             cubecl's tracel-llvm-bundler download its own bundle (it needs GitHub access)"
                .into(),
        );
    }
    let data = data_folder()?;
    let bundler = data.join(BUNDLER_FOLDER);
    let sdk = data.join("burn").join(format!("llvm-sdk-{SDK_VERSION}"));
    let sdk_static = sdk.join("mlc_llvm_static").join("static");

    if bundler.join(BUNDLER_MARKER).exists() {
        let version = llvm_config_version(&bundler)?;
        eprintln!(
            "xtask llvm: LLVM {version} already installed at {}",
            describe(&bundler)
        );
        return system_libraries();
    }
    if bundler.exists() && !bundler.is_symlink() {
        return Err(format!(
            "{} exists without the marker {BUNDLER_MARKER} (an interrupted \
             download of tracel's bundler?); remove it and run `cargo xtask llvm` again",
            bundler.display()
        ));
    }
    if !sdk_static.join("bin").join("llvm-config").exists() {
        pip_install(&sdk)?;
    }
    let parent = bundler.parent().expect("the bundler folder has a parent");
    std::fs::create_dir_all(parent)
        .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    if bundler.is_symlink() {
        std::fs::remove_file(&bundler)
            .map_err(|e| format!("cannot replace {}: {e}", bundler.display()))?;
    }
    std::os::unix::fs::symlink(&sdk_static, &bundler).map_err(|e| {
        format!(
            "cannot link {} to {}: {e}",
            bundler.display(),
            sdk_static.display()
        )
    })?;
    let version = llvm_config_version(&bundler)?;
    std::fs::write(bundler.join(BUNDLER_MARKER), b"")
        .map_err(|e| format!("cannot write the marker: {e}"))?;
    eprintln!(
        "xtask llvm: LLVM {version} installed at {}",
        describe(&bundler)
    );
    system_libraries()
}

/// Where the bundler looks: `$XDG_DATA_HOME` when it is an absolute path, else
/// `~/.local/share` (the `dirs` crate's `data_local_dir` on Linux).
pub fn data_folder() -> Result<PathBuf, String> {
    if let Some(xdg) = std::env::var_os("XDG_DATA_HOME").map(PathBuf::from)
        && xdg.is_absolute()
    {
        return Ok(xdg);
    }
    let home = std::env::var_os("HOME")
        .ok_or("neither XDG_DATA_HOME nor HOME is set; cannot place the SDK")?;
    Ok(PathBuf::from(home).join(".local").join("share"))
}

/// `pip install --no-deps --require-hashes --target` of the pinned wheels into `sdk`, through
/// a temporary folder renamed into place once complete (an interrupted install leaves no
/// half-filled SDK behind).
fn pip_install(sdk: &Path) -> Result<(), String> {
    let partial = sdk.with_extension("partial");
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir_all(&partial)
        .map_err(|e| format!("cannot create {}: {e}", partial.display()))?;
    let requirements = partial.join("requirements.txt");
    let lines: String = WHEELS
        .iter()
        .map(|(name, sha)| format!("{name}=={SDK_VERSION} --hash=sha256:{sha}\n"))
        .collect();
    std::fs::write(&requirements, lines)
        .map_err(|e| format!("cannot write {}: {e}", requirements.display()))?;
    eprintln!(
        "xtask llvm: installing the LLVM SDK ({}) from PyPI into {}",
        WHEELS
            .iter()
            .map(|(name, _)| format!("{name}=={SDK_VERSION}"))
            .collect::<Vec<_>>()
            .join(", "),
        sdk.display()
    );
    let status = Command::new("python3")
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--root-user-action=ignore",
        ])
        .args(["--no-deps", "--require-hashes", "--only-binary", ":all:"])
        .arg("--target")
        .arg(&partial)
        .arg("-r")
        .arg(&requirements)
        .status()
        .map_err(|e| {
            format!("cannot run `python3 -m pip` (is Python 3 with pip installed?): {e}")
        })?;
    if !status.success() {
        return Err(format!(
            "`python3 -m pip install` of the LLVM SDK failed ({status})"
        ));
    }
    let _ = std::fs::remove_dir_all(sdk);
    std::fs::rename(&partial, sdk).map_err(|e| {
        format!(
            "cannot move {} to {}: {e}",
            partial.display(),
            sdk.display()
        )
    })
}

/// `llvm-config --version` of the SDK at `prefix`, checked to be LLVM [`LLVM_MAJOR`].
fn llvm_config_version(prefix: &Path) -> Result<String, String> {
    let llvm_config = prefix.join("bin").join("llvm-config");
    let output = Command::new(&llvm_config)
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", llvm_config.display()))?;
    let version = String::from_utf8_lossy(&output.stdout).trim().to_string();
    if !output.status.success() || !version.starts_with(&format!("{LLVM_MAJOR}.")) {
        return Err(format!(
            "{} --version printed {version:?} ({}); expected LLVM {LLVM_MAJOR}",
            llvm_config.display(),
            output.status
        ));
    }
    Ok(version)
}

/// `path`, and where it leads when it is a link.
fn describe(path: &Path) -> String {
    match std::fs::read_link(path) {
        Ok(target) => format!("{} -> {}", path.display(), target.display()),
        Err(_) => path.display().to_string(),
    }
}

/// Checks that the system libraries the SDK links with (`-lz -lzstd`) can be linked,
/// installing their Debian development packages when they cannot and this runs as root.
fn system_libraries() -> Result<(), String> {
    if links_system_libraries() {
        return Ok(());
    }
    let packages = ["zlib1g-dev", "libzstd-dev"];
    if apt_install(&packages) && links_system_libraries() {
        return Ok(());
    }
    Err(format!(
        "the LLVM SDK links with zlib and zstd, and `cc -lz -lzstd` fails here; \
         install their development packages (`apt-get install {}`)",
        packages.join(" ")
    ))
}

/// Installs Debian packages with apt-get (its package lists refreshed if the first try fails),
/// when this runs as root on a machine with apt-get. Whether they were installed.
pub fn apt_install(packages: &[&str]) -> bool {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if !root || Command::new("apt-get").arg("--version").output().is_err() {
        return false;
    }
    eprintln!("xtask: installing {}", packages.join(" "));
    let install = |update: bool| {
        if update {
            let _ = Command::new("apt-get").arg("update").status();
        }
        Command::new("apt-get")
            .args(["install", "-y", "--no-install-recommends"])
            .args(packages)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .is_ok_and(|s| s.success())
    };
    install(false) || install(true)
}

/// Whether a C program links with `-lz -lzstd` here.
fn links_system_libraries() -> bool {
    let dir = std::env::temp_dir().join(format!("burn-xtask-llvm-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err() {
        return false;
    }
    let source = dir.join("main.c");
    let linked = std::fs::write(&source, "int main(void) { return 0; }\n").is_ok()
        && Command::new("cc")
            .arg(&source)
            .arg("-o")
            .arg(dir.join("main"))
            .args(["-lz", "-lzstd"])
            .output()
            .is_ok_and(|o| o.status.success());
    let _ = std::fs::remove_dir_all(&dir);
    linked
}
