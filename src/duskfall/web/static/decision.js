// The form of one decision, as the server built it from the legal view: whole actions to
// choose from (buttons with distinct labels) and the inputs a choice cannot list (a speech, a
// vector of reads, an optional claim). Never a free JSON box.
"use strict";

let formSerial = 0;

function fieldInput(field, id) {
  if (field.kind === "text") {
    const area = el("textarea", { id, rows: 3, maxlength: field.max || undefined });
    return { node: area, read: () => area.value };
  }
  if (field.kind === "select") {
    const select = el("select", { id }, ...field.options.map((o, i) => el("option", { value: i, text: o.label })));
    return { node: select, read: () => field.options[Number(select.value)].value };
  }
  if (field.kind === "vector") {
    const cells = field.cells.map((label, i) => {
      const select = el("select", { id: `${id}-${i}` },
        ...field.values.map((v) => el("option", { value: v, text: v > 0 ? `+${v}` : String(v) })));
      select.value = field.values.includes(0) ? "0" : String(field.values[0]);
      return { label, select };
    });
    const node = el("fieldset", { class: "vector", id },
      el("legend", { text: field.label }),
      ...cells.map(({ label, select }) => el("div", {}, el("label", { for: select.id, text: label }), select)));
    return { node, read: () => cells.map((c) => Number(c.select.value)), grouped: true };
  }
  if (field.kind === "records") return recordsInput(field, id);
  const input = el("input", { id, type: "number", min: field.min ?? undefined, max: field.max ?? undefined, value: field.min ?? 0 });
  return {
    node: input,
    read() {
      if (input.value === "" || Number.isNaN(Number(input.value))) throw new Error(`enter a number for ${field.label}`);
      return Number(input.value);
    },
  };
}

/** A list of rows (a sheriff's announced checks), each a choice per column; rows are added
 * and removed with buttons, up to `field.max`. */
function recordsInput(field, id) {
  const rows = [];
  const list = el("div", { class: "records", id: `${id}-rows` });
  const add = el("button", { type: "button", class: "add-record", id: `${id}-add`, text: "Add a check" });
  const refresh = () => {
    add.disabled = field.max != null && rows.length >= field.max;
  };
  add.addEventListener("click", () => {
    const n = ++formSerial;
    const selects = field.columns.map((column) => {
      const select = el("select", { id: `${id}-${n}-${column.key}`, "data-column": column.key },
        ...column.options.map((o, i) => el("option", { value: i, text: o.label })));
      return { column, select };
    });
    const remove = el("button", { type: "button", class: "remove-record", text: "Remove" });
    const row = el("div", { class: "record" },
      ...selects.map(({ column, select }) => el("label", { for: select.id, text: `${column.label} ` }, select)),
      remove);
    const entry = { row, selects };
    remove.addEventListener("click", () => {
      rows.splice(rows.indexOf(entry), 1);
      row.remove();
      refresh();
      add.focus();
    });
    rows.push(entry);
    list.append(row);
    refresh();
    selects[0].select.focus();
  });
  const node = el("fieldset", { class: "records-field", id },
    el("legend", { text: field.label }), list, add);
  return {
    node,
    grouped: true,
    read: () => rows.map(({ selects }) => Object.fromEntries(
      selects.map(({ column, select }) => [column.key, column.options[Number(select.value)].value]))),
  };
}

/** {node, read()} for a decision's form; read() throws an Error saying what is missing. */
function buildForm(form) {
  const serial = ++formSerial;
  const choices = form.choices || [];
  let chosen = choices.length === 1 ? 0 : null;
  const buttons = choices.length > 1 ? choices.map((choice, i) => {
    const button = el("button", { type: "button", class: "choice", "aria-pressed": "false", "data-index": i, text: choice.label });
    button.addEventListener("click", () => {
      chosen = i;
      for (const b of buttons) b.setAttribute("aria-pressed", String(b === button));
    });
    return button;
  }) : [];
  const inputs = (form.fields || []).map((field, i) => {
    const id = `form-${serial}-${field.key}-${i}`;
    const input = fieldInput(field, id);
    const wrap = input.grouped ? el("div", { class: "field", "data-field": field.key }, input.node)
      : el("div", { class: "field", "data-field": field.key }, el("label", { for: id, class: "label", text: field.label }), input.node);
    return { field, input, wrap };
  });
  const group = buttons.length
    ? el("div", { class: "choices", role: "group", "aria-label": "your choice" }, ...buttons) : null;
  return {
    node: el("div", {}, group, ...inputs.map((i) => i.wrap)),
    read() {
      if (chosen === null) throw new Error("choose one of the options first");
      const action = { ...(choices[chosen] ? choices[chosen].value : {}) };
      for (const { field, input } of inputs) {
        const value = input.read();
        if (value !== null && value !== undefined) action[field.key] = value;
      }
      return action;
    },
  };
}

/** "4:59": the time left until `deadline` (seconds since the epoch). */
function timeLeft(deadline) {
  const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}
