// A form for one decision, built from the JSON schema of its legal actions.
// Handles what the variants use: constants, choices (enum), yes/no, numbers, fixed-length
// vectors of small integers, text, and alternatives (oneOf/anyOf); anything else gets a JSON box.
"use strict";

function choiceLabel(value) {
  if (value === null || value === -1) return "nobody / skip";
  if (typeof value === "number") return `seat ${value}`;
  if (value === true) return "yes";
  if (value === false) return "no";
  return String(value);
}

function fieldLabel(name) {
  return name.replace(/_/g, " ");
}

/** Buttons of which exactly one is chosen; read() throws until one is. */
function choiceField(name, options) {
  let chosen;
  let has = false;
  const buttons = options.map((value) => {
    const button = el("button", {
      type: "button",
      class: "choice",
      "data-value": JSON.stringify(value),
      text: choiceLabel(value),
    });
    button.addEventListener("click", () => {
      chosen = value;
      has = true;
      for (const b of buttons) b.classList.toggle("chosen", b === button);
    });
    return button;
  });
  return {
    node: el("div", { class: "choices" }, ...buttons),
    read() {
      if (!has) throw new Error(`choose a ${fieldLabel(name)}`);
      return chosen;
    },
  };
}

function rangeOf(schema) {
  const lo = Number.isFinite(schema.minimum) ? schema.minimum : null;
  const hi = Number.isFinite(schema.maximum) ? schema.maximum : null;
  return [lo, hi];
}

function integerInput(schema, initial) {
  const [lo, hi] = rangeOf(schema);
  if (lo !== null && hi !== null && hi - lo <= 12) {
    const select = el("select", {});
    for (let v = lo; v <= hi; v++) select.append(el("option", { value: v, text: v > 0 ? `+${v}` : String(v) }));
    select.value = String(Math.min(hi, Math.max(lo, initial)));
    return { node: select, read: () => Number(select.value) };
  }
  const input = el("input", { type: "number", min: lo, max: hi, step: schema.type === "integer" ? 1 : "any", value: initial });
  return {
    node: input,
    read() {
      const value = Number(input.value);
      if (input.value === "" || Number.isNaN(value)) throw new Error("enter a number");
      return value;
    },
  };
}

function vectorField(schema) {
  const items = schema.items || {};
  const count = schema.minItems;
  const [lo, hi] = rangeOf(items);
  const initial = lo !== null && lo > 0 ? lo : hi !== null && hi < 0 ? hi : 0;
  const cells = [];
  for (let i = 0; i < count; i++) cells.push(integerInput(items, initial));
  return {
    node: el("div", { class: "vector" }, ...cells.map((c, i) => el("label", {}, `seat ${i}`, c.node))),
    read: () => cells.map((c) => c.read()),
  };
}

function jsonField(name, schema) {
  const area = el("textarea", { rows: 3, placeholder: JSON.stringify(schema).slice(0, 200) });
  return {
    node: area,
    read() {
      if (area.value.trim() === "") throw new Error(`fill in ${fieldLabel(name)} (JSON)`);
      return JSON.parse(area.value);
    },
  };
}

function alternativesField(name, options) {
  const labels = options.map((o, i) => {
    const type = o.properties && o.properties.type;
    return (type && (type.const ?? (type.enum && type.enum[0]))) || o.title || `option ${i + 1}`;
  });
  const select = el("select", {}, ...labels.map((l, i) => el("option", { value: i, text: l })));
  const holder = el("div", {});
  let current;
  const show = () => {
    current = buildField(name, options[Number(select.value)]);
    holder.replaceChildren(current.node);
  };
  select.addEventListener("change", show);
  show();
  return { node: el("div", {}, select, holder), read: () => current.read() };
}

function objectField(schema) {
  const required = new Set(schema.required || []);
  const fields = [];
  const constants = {};
  for (const [name, prop] of Object.entries(schema.properties || {})) {
    if ("const" in prop) {
      constants[name] = prop.const;
      continue;
    }
    if (prop.enum && prop.enum.length === 1) {
      constants[name] = prop.enum[0];
      continue;
    }
    const nested = prop.type === "array" && prop.items && prop.items.type === "array";
    if (!required.has(name) && nested) continue; // optional matrices: use the JSON box
    fields.push([name, buildField(name, prop), required.has(name)]);
  }
  const node = el("div", {}, ...fields.map(([name, field]) =>
    el("div", { class: "field", "data-field": name }, el("div", { class: "label", text: fieldLabel(name) }), field.node)));
  return {
    node,
    read() {
      const value = { ...constants };
      for (const [name, field, needed] of fields) {
        try {
          value[name] = field.read();
        } catch (err) {
          if (needed) throw err;
        }
      }
      return value;
    },
  };
}

/** A field for `schema`: {node, read()}; read() throws an Error saying what is missing. */
function buildField(name, schema) {
  schema = schema || {};
  const alternatives = schema.oneOf || schema.anyOf;
  if (alternatives) return alternativesField(name, alternatives);
  if (schema.enum) return choiceField(name, schema.enum);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type === "object") return objectField(schema);
  if (type === "boolean") return choiceField(name, [true, false]);
  if (type === "integer" || type === "number") return integerInput(schema, 0);
  if (type === "string") {
    const area = el("textarea", { rows: 3, maxlength: schema.maxLength });
    return { node: area, read: () => area.value };
  }
  const items = schema.items || {};
  if (type === "array" && schema.minItems && schema.minItems === schema.maxItems && items.type === "integer") {
    return vectorField(schema);
  }
  return jsonField(name, schema);
}
