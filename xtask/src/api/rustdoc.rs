//! Reading rustdoc's JSON output (format 57, `--output-format json`): one file per crate, items
//! addressed by `(crate, id)`, re-exports followed into the crate that defines their target.

use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

/// One crate's rustdoc JSON, with the map from a defining path to the item's id.
pub struct Krate {
    json: Value,
    by_path: HashMap<Vec<String>, String>,
}

/// An item of one of the loaded crates.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ItemRef {
    /// The crate's name as rustdoc writes it (`burn_tensor`).
    pub krate: String,
    /// The item's id in that crate's index.
    pub id: String,
}

/// What a re-export leads to.
pub enum Target {
    /// An item of a loaded crate.
    Item(ItemRef),
    /// An item of a crate whose JSON was not generated: its defining path and kind only.
    External { path: String, kind: String },
}

/// Every crate's JSON found in one `doc` folder.
pub struct Docs {
    crates: HashMap<String, Krate>,
}

impl Docs {
    /// Loads every `*.json` under `dir` (the output of `cargo doc` with JSON output).
    pub fn load(dir: &Path) -> Result<Docs, String> {
        let mut crates = HashMap::new();
        let entries =
            std::fs::read_dir(dir).map_err(|e| format!("reading {}: {e}", dir.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("reading {}: {e}", path.display()))?;
            let json: Value = serde_json::from_str(&text)
                .map_err(|e| format!("parsing {}: {e}", path.display()))?;
            let version = json["format_version"].as_u64().unwrap_or(0);
            if !(50..=60).contains(&version) {
                return Err(format!(
                    "{}: rustdoc JSON format {version}, this reader knows 50 to 60",
                    path.display()
                ));
            }
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let mut by_path = HashMap::new();
            if let Some(paths) = json["paths"].as_object() {
                for (id, summary) in paths {
                    if summary["crate_id"].as_u64() == Some(0) {
                        let segments = summary["path"]
                            .as_array()
                            .map(|p| {
                                p.iter()
                                    .filter_map(|s| s.as_str().map(String::from))
                                    .collect()
                            })
                            .unwrap_or_default();
                        by_path.insert(segments, id.clone());
                    }
                }
            }
            super::render::record_defaults(&json["index"]);
            crates.insert(name, Krate { json, by_path });
        }
        Ok(Docs { crates })
    }

    /// The root module of `krate`.
    pub fn root(&self, krate: &str) -> Option<ItemRef> {
        let json = &self.crates.get(krate)?.json;
        Some(ItemRef {
            krate: krate.to_string(),
            id: json["root"].to_string(),
        })
    }

    /// The item `r` refers to (`Value::Null` if unknown).
    pub fn item(&self, r: &ItemRef) -> &Value {
        self.crates
            .get(&r.krate)
            .map(|k| &k.json["index"][&r.id])
            .unwrap_or(&Value::Null)
    }

    /// Resolves an id used inside crate `from` (a re-export's target, a path's id).
    pub fn resolve(&self, from: &str, id: &Value) -> Option<Target> {
        let key = id_key(id)?;
        let krate = self.crates.get(from)?;
        if krate.json["index"].get(&key).is_some() {
            return Some(Target::Item(ItemRef {
                krate: from.to_string(),
                id: key,
            }));
        }
        let summary = &krate.json["paths"][&key];
        let segments: Vec<String> = summary["path"]
            .as_array()?
            .iter()
            .filter_map(|s| s.as_str().map(String::from))
            .collect();
        let kind = summary["kind"].as_str().unwrap_or("?").to_string();
        let crate_id = summary["crate_id"].to_string();
        let crate_name = krate.json["external_crates"][&crate_id]["name"]
            .as_str()
            .map(String::from)
            .or_else(|| segments.first().cloned())?;
        if let Some(target) = self.crates.get(&crate_name)
            && let Some(id) = target.by_path.get(&segments)
        {
            return Some(Target::Item(ItemRef {
                krate: crate_name,
                id: id.clone(),
            }));
        }
        Some(Target::External {
            path: segments.join("::"),
            kind,
        })
    }
}

/// The index key of an id (ids are numbers in format 57, strings in older formats).
fn id_key(id: &Value) -> Option<String> {
    match id {
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// The kind of an item: the single key of its `inner` object (`struct`, `function`, ...).
pub fn kind(item: &Value) -> &str {
    item["inner"]
        .as_object()
        .and_then(|o| o.keys().next())
        .map(String::as_str)
        .unwrap_or("?")
}

/// The payload of an item's `inner` object.
pub fn inner(item: &Value) -> &Value {
    item["inner"]
        .as_object()
        .and_then(|o| o.values().next())
        .unwrap_or(&Value::Null)
}

/// Whether an item is `pub` (impl blocks and trait items have the default visibility).
pub fn is_public(item: &Value) -> bool {
    item["visibility"].as_str() == Some("public")
}
