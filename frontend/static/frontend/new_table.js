// The new-table form: as many seat rows as there are players, and the rules' defaults of the options
// chosen in the number fields (options.js). Without this script every seat row shows; the server
// reads as many as there are players.
import { followDefaults } from "./options.js";

const form = document.getElementById("new-table");
const players = document.getElementById("players");
const rows = document.querySelectorAll(".seat-row");

function update() {
  rows.forEach((row) => {
    row.hidden = Number(row.dataset.seat) >= Number(players.value);
    const name = row.querySelector(".seat-name");
    const select = row.querySelector("select").value;
    if (name) name.hidden = !(select === "local" || (select === "me" && !form.dataset.signedIn));
  });
  followDefaults(document.getElementById("game-options"), form.dataset.game, players.value);
}

form.addEventListener("change", update);
update();
