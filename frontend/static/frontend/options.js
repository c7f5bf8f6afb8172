// A game's options in a form (the new-table form, the tournament form; frontend/options.py).
// Number fields are left empty unless the player types a number: the engine then fills in the
// rules' default for the options chosen. Their placeholder shows that default, and follows the
// other options (All Fives: 250 with two players, 200 with three or four), from the table the
// page carries (options.defaults_table). Without this script the page still works: the
// placeholder shows the default of the options the form started with.

const source = document.getElementById("option-defaults");
const TABLE = source ? JSON.parse(source.textContent) : {};

function current(box, players) {
  const chosen = { players: String(players) };
  box.querySelectorAll("[data-option]").forEach((input) => {
    if (input.type === "checkbox") chosen[input.dataset.option] = String(input.checked);
    else if (input.tagName === "SELECT") chosen[input.dataset.option] = input.value;
  });
  return chosen;
}

// Show, in the number fields of ``box`` (the options of ``game``), the defaults of the options chosen.
export function followDefaults(box, game, players) {
  const chosen = current(box, players);
  const row = (TABLE[game] || []).find((r) =>
    Object.entries(r.when).every(([key, value]) => !(key in chosen) || String(value) === chosen[key]),
  );
  if (!row) return;
  for (const [key, value] of Object.entries(row.defaults)) {
    const input = box.querySelector(`input[type="number"][data-option="${key}"]`);
    if (input) input.placeholder = value === null ? "" : String(value);
  }
}
