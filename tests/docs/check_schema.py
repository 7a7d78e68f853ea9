#!/usr/bin/python3
"""The JSON Schemas of docs/schema/ against ringsim itself (ctest docs_schema).

  check_schema.py RINGSIM REPO

1. Both schemas are valid draft 2020-12 schemas.
2. The keys of every object of the schemas are the keys ringsim accepts there (`ringsim
   config-keys`, the lists its readers refuse other keys with; a run config's top level is the
   key table of src/io/run_config_json.hpp, which reads and writes them), in both directions; and the
   values of every enumerated key (`ringsim config-keys` "values": the policy registry, the
   planners' tables, the reader's lists) are the schema's enums, both ways. Schemes given by a
   syntax (every-K, after:a,b,.., adaptive-gather-K) are sampled (every-7, after:3,9): each sample
   must validate and each of the schema's patterns must match some sample.
3. Every run config and experiment committed in the repository (`git ls-files '*.json'`, kind
   decided by content) and every ```json run-config / ```json experiment block of docs/*.md
   validates.
4. Each file of tests/docs/invalid/ (run-*.json: run configs, exp-*.json: experiments) is refused
   by the schema and by ringsim (exit status 2).
Run with Debian's /usr/bin/python3 (python3-jsonschema).
"""
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import jsonschema

ringsim, repo = sys.argv[1], pathlib.Path(sys.argv[2]).resolve()
schema_dir = repo / "docs" / "schema"
failures = []


def fail(message):
    failures.append(message)
    print("FAIL " + message)


def load(name):
    return json.loads((schema_dir / name).read_text())


run_schema, exp_schema = load("run-config.schema.json"), load("experiment.schema.json")
Validator = jsonschema.Draft202012Validator
store = {}
for name, schema in (("run-config.schema.json", run_schema), ("experiment.schema.json", exp_schema)):
    Validator.check_schema(schema)
    store[(schema_dir / name).as_uri()] = schema


def validator(name, schema):
    resolver = jsonschema.RefResolver(base_uri=(schema_dir / name).as_uri(), referrer=schema, store=store)
    return Validator(schema, resolver=resolver)


run_validator = validator("run-config.schema.json", run_schema)
exp_validator = validator("experiment.schema.json", exp_schema)

# 2. The keys, object by object, both ways.
accepted = json.loads(subprocess.run([ringsim, "config-keys"], check=True, capture_output=True, text=True).stdout)
values = accepted.pop("values", None)
defs = run_schema["$defs"]
where_in_schema = {
    ("run_config", ""): defs["base"],
    ("run_config", "ring"): defs["ring"],
    ("run_config", "staging"): defs["staging"],
    ("run_config", "rebuild[]"): defs["rebuild"],
    ("experiment", ""): exp_schema,
    ("experiment", "quick"): exp_schema["properties"]["quick"],
}
sources = defs["traces"]["properties"]["source"]["enum"]
for source in sources:
    where_in_schema[("run_config", "traces/" + source)] = defs.get("traces-" + source, {"properties": {}})
seen = set()
for kind, objects in accepted.items():
    for obj, keys in objects.items():
        seen.add((kind, obj))
        node = where_in_schema.get((kind, obj))
        if node is None:
            fail(f"ringsim accepts object {kind} '{obj}' ({', '.join(keys)}), the schema has no such object")
            continue
        in_schema = set(node.get("properties", {}))
        for key in sorted(set(keys) - in_schema):
            fail(f"{kind} '{obj}': key '{key}' accepted by ringsim, missing from the schema")
        for key in sorted(in_schema - set(keys)):
            fail(f"{kind} '{obj}': key '{key}' in the schema, refused by ringsim")
for kind, obj in sorted(set(where_in_schema) - seen):
    fail(f"the schema has object {kind} '{obj}', ringsim knows no such object")
union = set().union(*(set(defs["traces-" + s]["properties"]) for s in sources if "traces-" + s in defs))
if union != set(defs["traces"]["properties"]):
    fail(f"traces: the properties listed for completion {sorted(defs['traces']['properties'])} are not the union of the sources' {sorted(union)}")
print(f"keys: {sum(len(v) for o in accepted.values() for v in o.values())} accepted keys in {len(seen)} objects compared")


# 2b. The values of the enumerated keys, both ways.
def schema_strings(node):
    """The enum values and the patterns of a property (through anyOf / oneOf)."""
    enum, patterns = set(), []
    for alt in [node] + node.get("anyOf", []) + node.get("oneOf", []):
        enum |= {v for v in alt.get("enum", []) if isinstance(v, str)}
        if "pattern" in alt:
            patterns.append(alt["pattern"])
    return enum, patterns


def enumerated_nodes(node, path):
    """Every property of the schema that has an enum or a pattern: {path: node}."""
    found = {}
    if isinstance(node, dict):
        for name, prop in node.get("properties", {}).items():
            if isinstance(prop, dict) and schema_strings(prop) != (set(), []):
                found[path + "/properties/" + name] = prop
        for key, sub in node.items():
            if key != "properties" and isinstance(sub, (dict, list)):
                found.update(enumerated_nodes(sub, path + "/" + key))
        for name, prop in node.get("properties", {}).items():
            found.update(enumerated_nodes(prop, path + "/properties/" + name))
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            found.update(enumerated_nodes(sub, f"{path}/{i}"))
    return found


def sample(syntax):
    """A value of a scheme syntax: 'every-K' -> 'every-7', 'after:a,b,..' -> 'after:3,9'."""
    value = re.sub(r"(?<=[-:])K$", "7", syntax.replace("a,b,..", "3,9").replace("a,b,c", "3,9"))
    return None if re.search(r"[A-Z]|\.\.", value) else value


where_values = {
    "scheme": "#/$defs/base/properties/scheme",
    "algorithm": "#/$defs/base/properties/algorithm",
    "targets": "#/$defs/base/properties/targets",
    "network_model": "#/$defs/base/properties/network_model",
    "ring.selection": "#/$defs/ring/properties/selection",
    "ring.method": "#/$defs/ring/properties/method",
    "ring.routing": "#/$defs/ring/properties/routing",
    "staging.algorithm": "#/$defs/staging/properties/algorithm",
    "rebuild[].algorithm": "#/$defs/rebuild/properties/algorithm",
    "traces.source": "#/$defs/traces/properties/source",
    "traces.placement": "#/$defs/traces/properties/placement",
    "traces.default": "#/$defs/traces/properties/default",
    "traces.durations": "#/$defs/traces/properties/durations",
    "traces.phase": "#/$defs/traces/properties/phase",
    "traces.conversion": "#/$defs/traces/properties/conversion",
    "traces.time_scale": "#/$defs/traces/properties/time_scale",
    "traces.offset": "#/$defs/traces/properties/offset",
}
described_values = {"scheme"}  # keys whose description enumerates their values
ignored_in_schema = {"#/$defs/base/properties/simgrid"}  # option names: a pattern, not a list
if values is None:
    fail("`ringsim config-keys` prints no \"values\" (the accepted values of the enumerated keys)")
    values = {}
compared = 0
for key in sorted(set(values) - set(where_values)):
    fail(f"ringsim lists values of '{key}' ({', '.join(values[key])}); check_schema.py does not know where the schema has them")
for key, pointer in sorted(where_values.items()):
    node = run_schema
    for part in pointer.split("/")[1:]:
        node = node[part]
    enum, patterns = schema_strings(node)
    code = values.get(key)
    if code is None:
        fail(f"the schema enumerates '{key}' ({pointer}), ringsim config-keys lists no values for it")
        continue
    plain = [v for v in code if re.fullmatch(r"[a-z0-9][a-z0-9-]*", v)]
    samples = {}
    for v in code:
        if v in plain:
            continue
        samples[v] = sample(v)
        if samples[v] is None:
            fail(f"'{key}': ringsim's syntax '{v}' has a placeholder check_schema.py cannot sample")
    for v in plain:
        compared += 1
        if v not in enum:
            fail(f"'{key}': '{v}' accepted by ringsim, missing from the schema's enum ({pointer})")
    for v in sorted(enum - set(plain)):
        compared += 1
        fail(f"'{key}': '{v}' in the schema's enum ({pointer}), not a value ringsim lists")
    # A description that lists the values (the scheme key's) lists every one of them, and both it
    # and the enum list them in ringsim's order (the registry's, schemes.def).
    if key in described_values:
        at = {}
        for v in plain:
            compared += 1
            found = re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", node.get("description", ""))
            if not found:
                fail(f"'{key}': '{v}' accepted by ringsim, missing from the schema's description ({pointer})")
            else:
                at[v] = found.start()
        described = sorted(at, key=at.get)
        if described != [v for v in plain if v in at]:
            fail(f"'{key}': the schema's description lists {', '.join(described)}; ringsim's order is "
                 f"{', '.join(plain)} ({pointer})")
        listed = [v for alt in [node] + node.get("anyOf", []) + node.get("oneOf", []) for v in alt.get("enum", [])]
        if [v for v in listed if v in plain] != [v for v in plain if v in listed]:
            fail(f"'{key}': the schema's enum lists {', '.join(listed)}; ringsim's order is {', '.join(plain)} "
                 f"({pointer})")
    subschema = dict(node, **{"$defs": defs})
    for syntax, value in samples.items():
        compared += 1
        if value is None:
            continue
        if not Validator(subschema).is_valid(value):
            fail(f"'{key}': '{value}' (ringsim's syntax '{syntax}') does not validate against the schema ({pointer})")
    for pattern in patterns:
        compared += 1
        if not any(value and re.search(pattern, value) for value in samples.values()):
            fail(f"'{key}': the schema's pattern {pattern} matches no syntax ringsim lists "
                 f"({', '.join(samples) or 'none'})")
for path in sorted(enumerated_nodes(run_schema["$defs"], "#/$defs")):
    if path not in where_values.values() and path not in ignored_in_schema:
        fail(f"the schema enumerates {path}: check_schema.py compares it with nothing ringsim lists")
print(f"values: {compared} values, syntaxes and patterns of {len(where_values)} enumerated keys compared")


# 3. Committed configs and the docs' examples.
def kind_of(doc):
    if not isinstance(doc, dict):
        return None
    if "makespan" in doc and "ringsim_version" in doc and isinstance(doc.get("config"), dict):
        return "result"  # a run's result: its canonical config is checked as a run config
    if "base" in doc and "ring_sizes" in doc:
        return "experiment"
    if "ratio" in doc and ("platform" in doc or "ring" in doc or "traces" in doc or "scheme" in doc):
        return "run-config"
    return None


def check_valid(label, kind, doc):
    v = exp_validator if kind == "experiment" else run_validator
    errors = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
    for e in errors[:3]:
        fail(f"{label} ({kind}) does not validate: {'/'.join(map(str, e.path))}: {e.message[:200]}")
    return not errors


counts = {"experiment": 0, "run-config": 0}
files = subprocess.run(["git", "-C", str(repo), "ls-files", "*.json"], check=True, capture_output=True,
                       text=True).stdout.split()
for f in files:
    if f.startswith("tests/docs/invalid/"):
        continue  # refused on purpose (4. below)
    try:
        doc = json.loads((repo / f).read_text())
    except (OSError, ValueError):
        continue
    kind = kind_of(doc)
    if kind == "result":
        f, kind, doc = f + " (its config)", "run-config", doc["config"]
    if kind:
        counts[kind] += 1
        check_valid(f, kind, doc)
print(f"committed: {counts['run-config']} run configs and {counts['experiment']} experiments validated")

block = re.compile(r"^```json ([a-z-]+)[^\n]*\n(.*?)^```", re.M | re.S)
doc_counts = 0
for md in [repo / "README.md"] + sorted((repo / "docs").glob("*.md")):
    for m in block.finditer(md.read_text()):
        tag, text = m.group(1), m.group(2)
        if tag not in ("run-config", "experiment"):
            continue
        line = md.read_text()[:m.start()].count("\n") + 1
        doc_counts += 1
        try:
            doc = json.loads(text)
        except ValueError as e:
            fail(f"{md.name}:{line}: not JSON: {e}")
            continue
        check_valid(f"{md.name}:{line}", tag, doc)
print(f"docs: {doc_counts} examples validated")

# 4. Invalid configs: refused by both.
invalid = sorted((repo / "tests" / "docs" / "invalid").glob("*.json"))
with tempfile.TemporaryDirectory() as tmp:
    for f in invalid:
        kind = "experiment" if f.name.startswith("exp-") else "run-config"
        doc = json.loads(f.read_text())
        v = exp_validator if kind == "experiment" else run_validator
        if v.is_valid(doc):
            fail(f"{f.name}: the schema accepts it")
        cmd = ([ringsim, "run", str(f), "--list", "--out", os.path.join(tmp, f.stem)] if kind == "experiment"
               else [ringsim, "simulate", str(f), "--no-baseline"])
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=repo)
        if p.returncode != 2:
            fail(f"{f.name}: ringsim exit {p.returncode}, expected 2: {p.stderr.strip()[:200]}")
        else:
            print(f"refused by both: {f.name}: {p.stderr.strip()}")
if len(invalid) < 5:
    fail(f"only {len(invalid)} invalid configs in tests/docs/invalid/")
print("FAILED" if failures else "ok")
sys.exit(1 if failures else 0)
