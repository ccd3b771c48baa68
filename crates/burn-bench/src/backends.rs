//! The backends a run can name, and the device each one opens.

use burn::tensor::Device;

/// A backend of `--backend`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendChoice {
    /// Flex, the native CPU backend.
    Flex,
    /// Cube on WGPU (Vulkan): the first GPU adapter, else a software adapter such as lavapipe.
    Wgpu,
    /// Cube on CubeCL's CPU runtime (feature `cpu`).
    Cpu,
    /// Cube on CUDA GPU 0 (feature `cuda`).
    Cuda,
}

impl BackendChoice {
    /// What `--backend all` (and no `--backend`) runs, in the order of the table (Flex first:
    /// the others are compared with it). The LLVM-linked runtimes are named explicitly.
    pub const ALL: [BackendChoice; 2] = [BackendChoice::Flex, BackendChoice::Wgpu];

    /// Every backend `--backend` can name.
    pub const NAMED: [BackendChoice; 4] = [
        BackendChoice::Flex,
        BackendChoice::Wgpu,
        BackendChoice::Cpu,
        BackendChoice::Cuda,
    ];

    /// The name on the command line and in the table.
    pub fn name(self) -> &'static str {
        match self {
            BackendChoice::Flex => "flex",
            BackendChoice::Wgpu => "wgpu",
            BackendChoice::Cpu => "cpu",
            BackendChoice::Cuda => "cuda",
        }
    }

    /// The backend named `name` (any case).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::NAMED
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(name))
    }

    /// The device, or why this binary or machine cannot run the backend.
    pub fn open(self) -> Result<Opened, String> {
        match self {
            BackendChoice::Flex => Ok(Opened {
                device: Device::flex(),
                on_cpu: true,
                adapter: "this CPU (Flex)".into(),
            }),
            BackendChoice::Wgpu => open_wgpu(),
            BackendChoice::Cpu => open_cpu(),
            BackendChoice::Cuda => open_cuda(),
        }
    }
}

/// A backend's device and where it runs.
pub struct Opened {
    pub device: Device,
    /// Whether the device computes on this machine's CPU (Flex, or a software WGPU adapter
    /// such as lavapipe), so that the CPU's roofline applies to it.
    pub on_cpu: bool,
    /// The adapter, in words.
    pub adapter: String,
}

/// The first WGPU adapter: a discrete, integrated or virtual GPU, else a software (CPU)
/// adapter. The kind that opened says where it runs: the device's own `kind()` reports a
/// software adapter as a virtual GPU.
#[cfg(feature = "wgpu")]
fn open_wgpu() -> Result<Opened, String> {
    use burn::tensor::DeviceKind;
    let mut reasons = Vec::new();
    for kind in [
        DeviceKind::DiscreteGpu(0),
        DeviceKind::IntegratedGpu(0),
        DeviceKind::VirtualGpu(0),
        DeviceKind::Cpu,
    ] {
        match Device::try_wgpu(kind.clone()) {
            Ok(device) => {
                let on_cpu = kind == DeviceKind::Cpu;
                let adapter = if on_cpu {
                    "a software WGPU adapter on this CPU (e.g. Mesa's lavapipe)".to_string()
                } else {
                    format!("the first WGPU adapter of kind {kind:?}")
                };
                return Ok(Opened {
                    device,
                    on_cpu,
                    adapter,
                });
            }
            Err(err) => reasons.push(format!("{kind:?}: {err}")),
        }
    }
    Err(format!(
        "no WGPU adapter ({}); install a Vulkan driver (e.g. `apt-get install mesa-vulkan-drivers libvulkan1`)",
        reasons.join("; ")
    ))
}

#[cfg(not(feature = "wgpu"))]
fn open_wgpu() -> Result<Opened, String> {
    Err(not_built("wgpu"))
}

#[cfg(feature = "cpu")]
fn open_cpu() -> Result<Opened, String> {
    let device = Device::try_cpu().map_err(|err| err.to_string())?;
    Ok(Opened {
        device,
        on_cpu: true,
        adapter: "this CPU (CubeCL's CPU runtime, LLVM JIT)".into(),
    })
}

#[cfg(not(feature = "cpu"))]
fn open_cpu() -> Result<Opened, String> {
    Err(not_built("cpu"))
}

#[cfg(feature = "cuda")]
fn open_cuda() -> Result<Opened, String> {
    let device = Device::try_cuda(0).map_err(|err| format!("no CUDA GPU 0: {err}"))?;
    Ok(Opened {
        device,
        on_cpu: false,
        adapter: "CUDA GPU 0".into(),
    })
}

#[cfg(not(feature = "cuda"))]
fn open_cuda() -> Result<Opened, String> {
    Err(not_built("cuda"))
}

/// Why a backend of a feature this binary lacks cannot run.
#[allow(dead_code)] // unused in a build with every feature
fn not_built(feature: &str) -> String {
    format!(
        "this binary was built without the feature `{feature}` (`cargo xtask bench --backend \
         {feature}` builds it with it)"
    )
}
