//! The LLVM that CubeCL's ROCm runtime is compile-checked against: Debian's LLVM 22.
//!
//! cubecl-llvm's `amdgpu` feature compiles a C++ shim over lld's ELF driver (LLVM's AMDGPU target
//! needs lld to link a kernel), and the PyPI SDK of `cargo xtask llvm` has no lld. Debian 12's
//! security archive has LLVM 22 with lld (`llvm-22-dev liblld-22-dev libpolly-22-dev`), one
//! major version behind cubecl 0.11's LLVM 23, which is enough to compile the runtime but not
//! what it was written against: ROCm is compile-checked, never run, here.
//!
//! The bundler reads LLVM from `<data>/tracel/tracel-llvm-23.1.0-4`; this step makes a data
//! folder of its own (`<data>/burn/llvm-22-rocm`) whose bundler folder holds a `bin/llvm-config`
//! wrapping Debian's, and the marker. The wrapper rewrites the libraries Debian's `llvm-config`
//! prints as paths (`/usr/lib/x86_64-linux-gnu/libz3.so`) into `-l` flags, which the bundler
//! expects. A build with it sets `XDG_DATA_HOME` to that folder and uses a target folder of its
//! own: one cubecl-llvm build cannot serve two LLVMs.

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

/// Debian's LLVM 22 prefix.
const PREFIX: &str = "/usr/lib/llvm-22";

/// The Debian packages that hold LLVM 22 with lld and Polly (which its `llvm-config` lists).
const PACKAGES: [&str; 3] = ["llvm-22-dev", "liblld-22-dev", "libpolly-22-dev"];

/// Installs Debian's LLVM 22 where it is missing and makes the data folder that points the
/// bundler at it; returns that folder, the `XDG_DATA_HOME` of a `rocm` build.
pub fn install() -> Result<PathBuf, String> {
    let llvm_config = PathBuf::from(PREFIX).join("bin/llvm-config");
    let lld_header = PathBuf::from(PREFIX).join("include/lld/Common/Driver.h");
    let installed = llvm_config.exists() && lld_header.exists();
    if !installed && !crate::llvm::apt_install(&PACKAGES) {
        return Err(format!(
            "ROCm's compile check needs LLVM 22 with lld ({PREFIX}); install `apt-get install {}` \
             (Debian 12's security archive has them)",
            PACKAGES.join(" ")
        ));
    }
    if !lld_header.exists() {
        return Err(format!(
            "{} is missing after installing {}",
            lld_header.display(),
            PACKAGES.join(" ")
        ));
    }
    let data = crate::llvm::data_folder()?
        .join("burn")
        .join("llvm-22-rocm");
    let bundler = data.join(crate::llvm::BUNDLER_FOLDER);
    let bin = bundler.join("bin");
    std::fs::create_dir_all(&bin).map_err(|e| format!("cannot create {}: {e}", bin.display()))?;
    let wrapper = bin.join("llvm-config");
    let script = format!(
        "#!/bin/sh\n\
         # Debian's LLVM 22 llvm-config, with libraries printed as paths turned into -l flags.\n\
         out=$({}/bin/llvm-config \"$@\") || exit $?\n\
         printf '%s\\n' \"$out\" | sed -E 's#/[^ ]*/lib([A-Za-z0-9_+-]+)\\.so([.0-9]*)#-l\\1#g'\n",
        PREFIX
    );
    std::fs::write(&wrapper, script)
        .map_err(|e| format!("cannot write {}: {e}", wrapper.display()))?;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| format!("cannot make {} executable: {e}", wrapper.display()))?;
    std::fs::write(bundler.join(crate::llvm::BUNDLER_MARKER), b"")
        .map_err(|e| format!("cannot write the marker: {e}"))?;
    eprintln!(
        "xtask llvm: ROCm's LLVM 22 (Debian, with lld) at {} through {}",
        PREFIX,
        wrapper.display()
    );
    Ok(data)
}
