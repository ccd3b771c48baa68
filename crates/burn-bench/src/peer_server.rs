//! `--live-peers`: NumPy, PyTorch and JAX measured in the same run as Flex, each round of a
//! case right beside Flex's round of it. A shared machine's memory bandwidth drifts by tens of
//! percent over seconds; peers measured in a separate run (`--peers PATH`) compare the
//! memory-bound rows across different phases, and this puts both sides in the same one.
//!
//! The peers run in `benches/peers/peers.py --serve`, started once from the peers' virtual
//! environment (`$PEERS_VENV`, else `target/peers-venv`, which `bash benches/peers/run.sh
//! --install-only` makes). It answers one JSON line per request on its stdout: the round of one
//! case timed by the Python port of [`crate::measure::measure`], with the same method.

use crate::measure::{Method, Sample};
use crate::report::workspace_root;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// The frameworks the peers script measures, in the table's order, with their names in words.
pub const FRAMEWORKS: [(&str, &str); 3] =
    [("numpy", "NumPy"), ("torch", "PyTorch"), ("jax", "JAX")];

/// The running peers script.
pub struct PeerServer {
    child: Child,
    /// Closed (`None`) when the server is dropped: the end of its input ends its loop.
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    /// Per framework that set up: its cases (`"<id> <size>"`, as the workloads name them).
    ready: BTreeMap<String, Vec<String>>,
    /// Per framework that set up: its package's version.
    pub versions: BTreeMap<String, String>,
    /// Per framework that did not: why.
    pub skipped: BTreeMap<String, String>,
    /// Why the protocol broke (a reply that could not be read or did not answer the request):
    /// later replies cannot be matched to requests, so every later round fails with it.
    broken: Option<String>,
}

/// The peers' Python: `$PEERS_VENV/bin/python`, else `target/peers-venv/bin/python`.
fn python() -> PathBuf {
    std::env::var_os("PEERS_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/peers-venv"))
        .join("bin/python")
}

impl PeerServer {
    /// Starts the script and waits until every framework has imported and made its inputs.
    pub fn start() -> Result<Self, String> {
        let python = python();
        if !python.exists() {
            return Err(format!(
                "--live-peers: no Python at {} (run `bash benches/peers/run.sh --install-only` \
                 first, or set PEERS_VENV)",
                python.display()
            ));
        }
        let script = workspace_root().join("benches/peers/peers.py");
        let mut child = Command::new(&python)
            .arg(&script)
            .arg("--serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|err| format!("--live-peers: cannot start {}: {err}", python.display()))?;
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut server = PeerServer {
            child,
            stdin,
            stdout,
            ready: BTreeMap::new(),
            versions: BTreeMap::new(),
            skipped: BTreeMap::new(),
            broken: None,
        };
        let hello = server.read_reply()?;
        let strings = |v: &Value| -> Vec<String> {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        };
        let Some(ready) = hello.get("ready").and_then(Value::as_object) else {
            return Err(format!("--live-peers: unexpected first reply {hello}"));
        };
        server.ready = ready
            .iter()
            .map(|(name, cases)| (name.clone(), strings(cases)))
            .collect();
        let texts = |key: &str| -> BTreeMap<String, String> {
            hello
                .get(key)
                .and_then(Value::as_object)
                .map(|map| {
                    map.iter()
                        .map(|(name, text)| (name.clone(), text.as_str().unwrap_or("?").into()))
                        .collect()
                })
                .unwrap_or_default()
        };
        server.versions = texts("versions");
        server.skipped = texts("skipped");
        Ok(server)
    }

    /// The process id, so that its CPU time counts as the measurement's own during its rounds.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether `framework` set up and has the case `key` (`"<id> <size>"`).
    pub fn has(&self, framework: &str, key: &str) -> bool {
        self.ready
            .get(framework)
            .is_some_and(|cases| cases.iter().any(|c| c == key))
    }

    /// One round of `framework`'s case `key`, with `method`'s share of runs and time.
    pub fn round(&mut self, framework: &str, key: &str, method: Method) -> Result<Sample, String> {
        if let Some(why) = &self.broken {
            return Err(format!("peers script unusable: {why}"));
        }
        let outcome = self.exchange(framework, key, method);
        if let Err(Protocol(why)) = &outcome {
            self.broken = Some(why.clone());
        }
        outcome.map_err(|Protocol(why)| why)?
    }

    /// One request and its reply: `Err` when the protocol broke, `Ok(Err)` when the script
    /// answered with an error.
    fn exchange(
        &mut self,
        framework: &str,
        key: &str,
        method: Method,
    ) -> Result<Result<Sample, String>, Protocol> {
        let request = json!({
            "framework": framework,
            "case": key,
            "runs": method.runs,
            "rounds": method.rounds,
            "max_seconds": method.max_seconds,
        });
        let stdin = self.stdin.as_mut().expect("open until dropped");
        writeln!(stdin, "{request}")
            .and_then(|()| stdin.flush())
            .map_err(|err| Protocol(format!("peers script: cannot send a request: {err}")))?;
        let reply = self.read_reply().map_err(Protocol)?;
        // Each reply names its request: a stray line would otherwise shift every later reply
        // onto the wrong case.
        if reply["framework"].as_str() != Some(framework) || reply["case"].as_str() != Some(key) {
            return Err(Protocol(format!(
                "peers script: asked for {framework} {key}, got a reply to something else: {reply}"
            )));
        }
        if let Some(error) = reply.get("error") {
            return Ok(Err(format!(
                "{framework}: {}",
                error.as_str().unwrap_or("?")
            )));
        }
        let times: Vec<f64> = reply["times_s"]
            .as_array()
            .map(|t| t.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default();
        if times.is_empty() {
            return Ok(Err(format!(
                "{framework}: a reply without timed runs: {reply}"
            )));
        }
        Ok(Ok(Sample {
            warmup_runs: reply["warmup_runs"].as_u64().unwrap_or(0) as usize,
            capped: reply["capped"].as_bool().unwrap_or(false),
            times,
        }))
    }

    fn read_reply(&mut self) -> Result<Value, String> {
        let mut line = String::new();
        let read = self
            .stdout
            .read_line(&mut line)
            .map_err(|err| format!("peers script: cannot read its reply: {err}"))?;
        if read == 0 {
            return Err("peers script: it exited (its messages are above)".into());
        }
        serde_json::from_str(&line)
            .map_err(|err| format!("peers script: a reply that is not JSON ({err}): {line}"))
    }
}

/// A broken exchange with the script (as opposed to an error it reported).
struct Protocol(String);

/// How long the script has to exit once its input is closed, before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(5);

impl Drop for PeerServer {
    fn drop(&mut self) {
        // The end of its input ends its loop; a framework thread that keeps it alive past
        // the grace period gets it killed, so the run still prints its table.
        drop(self.stdin.take());
        let deadline = Instant::now() + EXIT_GRACE;
        while Instant::now() < deadline {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
