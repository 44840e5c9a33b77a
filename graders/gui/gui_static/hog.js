/* Browser side of the Hog web GUI.
 *
 * The server owns the game: every request replays the whole game from its seed and the
 * dice counts chosen by people so far, and answers with every turn played. This page only
 * remembers those choices, reveals the turns it has not shown yet, and asks a person for the
 * next move. Nothing here knows an edition's rules: rule names, texts and warnings all come
 * from the server, and so does every sentence the page says (PAGE_TEXT, sent with the
 * setup; see say). Server strings are only ever put in the page with textContent. What a
 * person chooses (a number of dice, or one action at a time) is the setup's move: MOVES holds
 * what the page does for each kind, picked once per setup (game.move).
 */
"use strict";

(() => {
  // The only sentences written here: those shown when the server cannot be reached at all, or
  // before its setup has arrived, so that no table of the page's texts is at hand. Every other
  // sentence comes from graders/gui/messages.py (PAGE_TEXT) through say().
  const OFFLINE_TEXT = {
    loading: "Loading the game…",
    notLoaded: "Could not load the game: see the error below",
    notAnswering: "The game server is not answering",
    notAnsweringDetail: "It may have been stopped. Start it again, then press New game.",
    answered: "The server answered {status} {reason}",
    unreadable: "The server sent an answer this page cannot read",
    wentWrong: "Something went wrong",
  };

  // Timing of an animated reveal: a shuffle of random faces, then a short rest on the real
  // faces so each turn can be seen (about 350-600 ms a turn in all).
  const SHUFFLE_MS = 420;
  const SHUFFLE_STEP_MS = 70;
  const SETTLE_MS = 150;
  const ZERO_DICE_MS = 380;
  const MOST_ANIMATED = 60;
  const RULE_GROUPS_SHOWN = 3;  // turns whose rules the latest-roll card shows  // turns in one reveal; a longer one (an endless game) is shown at once
  const ANIMATE_KEY = "hog.animate";

  const $ = (id) => document.getElementById(id);

  // Everything about the game in progress. `token` changes with every request, so a late
  // answer or a reveal of an abandoned game can tell it is stale and stop.
  const game = {
    setup: null,
    players: ["person", "person"],
    variant: null,
    seed: null,
    number: -1,  // this page's games so far, less one: with --seed, game k of a page gets seed + k
    goal: 100,
    sides: 0,  // the die's sides: from the setup ([game] sides)
    moves: [],
    shown: 0,
    shownKeys: [],  // each shown turn as JSON, to notice a replay that differs from the screen
    token: 0,
    pick: 5,
    move: null,  // what a person chooses, as the setup says: one of MOVES, picked once per setup
    fewest: 0,  // the dice range the setup gives ([game] dice); none offered until it comes
    most: -1,
    zeroRule: null,
    refocus: false,
    releaseStep: null,  // set while a reveal waits for Next turn
    waiting: null,  // in a game of actions, the player whose action is awaited
  };

  /* ---------- Small helpers ---------- */

  function setState(state) {
    document.body.dataset.state = state;
  }

  function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  // Builds an element with a class and plain text; never parses markup.
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function show(node, visible) {
    node.hidden = !visible;
  }

  // TEMPLATE with each {name} filled from VALUES; an unknown name stays as written, to be seen.
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (whole, name) =>
      (values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole));
  }

  // The page's sentence KEY from the table the setup carries (messages.PAGE_TEXT), filled with VALUES.
  function say(key, values) {
    const table = (game.setup && game.setup.text) || {};
    return fill(typeof table[key] === "string" ? table[key] : key, values);
  }

  function diceWord(n) {
    return n === 1 ? say("one_die", { n }) : say("dice", { n });
  }

  function readStored(key) {
    try {
      return window.localStorage.getItem(key);
    } catch (err) {
      return null;  // storage can be disabled (private mode, file://); treat as unset
    }
  }

  function writeStored(key, value) {
    try {
      window.localStorage.setItem(key, value);
    } catch (err) {
      /* not remembered: harmless */
    }
  }

  /* ---------- Talking to the server ---------- */

  const NOT_ANSWERING = { title: OFFLINE_TEXT.notAnswering, detail: OFFLINE_TEXT.notAnsweringDetail };

  // Returns {data} or {error}; never throws, so callers only have one path to handle.
  async function api(path, body) {
    const options = body === undefined
      ? { method: "GET", cache: "no-store" }
      : {
          method: "POST",
          cache: "no-store",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
        };
    let response;
    try {
      response = await fetch(path, options);
    } catch (err) {
      return { error: NOT_ANSWERING };
    }
    let data = null;
    try {
      data = await response.json();
    } catch (err) {
      data = null;
    }
    if (!response.ok) {
      if (data && data.error && data.error.title) return { error: data.error };
      const title = fill(OFFLINE_TEXT.answered, { status: response.status, reason: response.statusText });
      return { error: { title: title.trim() } };
    }
    if (data === null || typeof data !== "object") {
      return { error: { title: OFFLINE_TEXT.unreadable } };
    }
    return { data };
  }

  /* ---------- Setup ---------- */

  // The numbers a strategy factory is offered with: the edition's own range (the server fills in the
  // game's dice range when the edition names none).
  function factoryNumbers(setup) {
    const range = Array.isArray(setup.factory_numbers) ? setup.factory_numbers : [0, -1];
    const numbers = [];
    for (let k = range[0]; k <= range[1]; k++) numbers.push(k);
    return numbers;
  }

  function choiceValues(setup) {
    const values = ["person"];
    for (const name of setup.strategies || []) values.push(name);
    for (const name of setup.factories || []) {
      for (const k of factoryNumbers(setup)) values.push(`${name}(${k})`);
    }
    return values;
  }

  // The options of one player's select, grouped so a long list stays easy to scan.
  function fillPlayerSelect(select, setup, chosen) {
    select.replaceChildren();
    const person = el("option", null, say("person"));
    person.value = "person";
    select.append(person);
    const strategies = setup.strategies || [];
    if (strategies.length) {
      const group = document.createElement("optgroup");
      group.label = say("your_strategies");
      for (const name of strategies) {
        const option = el("option", null, name);
        option.value = name;
        group.append(option);
      }
      select.append(group);
    }
    for (const name of setup.factories || []) {
      const group = document.createElement("optgroup");
      group.label = `${name}(n)`;
      for (const k of factoryNumbers(setup)) {
        const option = el("option", null, `${name}(${k})`);
        option.value = `${name}(${k})`;
        group.append(option);
      }
      select.append(group);
    }
    select.value = chosen;
    if (select.value !== chosen) select.value = "person";  // no longer offered (renamed in hog.py)
  }

  // The opponent the server suggests may not be written yet; fall back gracefully.
  function defaultOpponent(setup) {
    const values = choiceValues(setup);
    if (setup.default_opponent && values.includes(setup.default_opponent)) {
      return setup.default_opponent;
    }
    const strategies = setup.strategies || [];
    return strategies.length ? strategies[0] : "person";
  }

  // A rule choice only makes sense with two or more variants; one variant is just described.
  function buildVariantField(setup) {
    const field = $("variant-field");
    field.replaceChildren();
    const variants = setup.variants || [];
    game.variant = variants.length ? variants[0].id : null;
    if (variants.length === 0) {
      show(field, false);
      return;
    }
    if (variants.length === 1) {
      const only = variants[0];
      field.append(el("span", "field-label", say("rules")));
      field.append(el("span", null, only.name || only.id));
      if (only.about) field.append(el("small", "variant-about", only.about));
      show(field, true);
      return;
    }
    const label = el("label", null, say("rules"));
    label.htmlFor = "variant";
    const select = document.createElement("select");
    select.id = "variant";
    select.name = "variant";
    const about = el("small", "variant-about");
    about.id = "variant-about";
    select.setAttribute("aria-describedby", "variant-about");
    for (const variant of variants) {
      const option = el("option", null, variant.name || variant.id);
      option.value = variant.id;
      if (variant.about) option.title = variant.about;
      select.append(option);
    }
    const describe = () => {
      const current = variants.find((v) => v.id === select.value);
      about.textContent = (current && current.about) || "";
    };
    select.addEventListener("change", describe);
    field.append(label, select, about);
    describe();
    show(field, true);
  }

  function showNotes(notes) {
    const list = $("notes-list");
    list.replaceChildren();
    for (const note of notes || []) list.append(el("li", null, note));
    show($("notes"), list.children.length > 0);
  }

  function setGoal(goal) {
    if (typeof goal !== "number") return;
    game.goal = goal;
    $("goal").textContent = say("goal", { goal });
    for (const node of document.querySelectorAll(".goal-number")) node.textContent = String(goal);
  }

  function applySetup(setup) {
    game.setup = setup;
    game.sides = setup.sides;  // the die, as the edition says
    game.move = MOVES[setup.move.kind];  // the one place the kind of move is read
    game.move.prepare(setup.move);
    if (setup.title) {
      $("title").textContent = setup.title;
      document.title = setup.title;
    }
    setGoal(setup.goal);
    fillPlayerSelect($("player0"), setup, "person");
    fillPlayerSelect($("player1"), setup, defaultOpponent(setup));
    buildVariantField(setup);
    $("printed-label").textContent = say("printed_label", { file: setup.submission });
    showNotes(setup.notes);
    show($("commentary"), false);
    game.players = [$("player0").value, $("player1").value];
    updatePanelNames();
  }

  async function loadSetup() {
    setState("loading");
    setStatus(OFFLINE_TEXT.loading);
    const result = await api("/api/setup");
    if (result.error) {
      showError(result.error);
      setStatus(OFFLINE_TEXT.notLoaded);
      setState("idle");
      return;
    }
    applySetup(result.data);
    if (result.data.error) {
      // hog.py could not be loaded at all: say so, and let New game try again later.
      showError(result.data.error);
      setStatus(say("stopped"));
      setState("idle");
      return;
    }
    await newGame(true);
  }

  /* ---------- Players and panels ---------- */

  function isPerson(i) {
    return game.players[i] === "person";
  }

  function personCount() {
    return game.players.filter((p) => p === "person").length;
  }

  // "You" reads naturally when one person plays; with two, neither is "you".
  function playerLabel(i) {
    if (isPerson(i)) return personCount() === 1 ? say("you") : say("person");
    return game.players[i];
  }

  // "Player 1 (final_strategy)" for a computer, just "Player 0" for a person.
  function playerTitle(i) {
    return isPerson(i) ? say("player", { who: i }) : say("player_strategy", { who: i, strategy: game.players[i] });
  }

  function updatePanelNames() {
    for (const i of [0, 1]) $(`name${i}`).textContent = say("panel_name", { who: i, label: playerLabel(i) });
  }

  function setScores(scores) {
    if (!Array.isArray(scores)) return;
    for (const i of [0, 1]) {
      const score = Number(scores[i]) || 0;
      $(`score${i}`).textContent = String(score);
      const percent = game.goal > 0 ? Math.min(100, Math.max(0, (score / game.goal) * 100)) : 0;
      $(`bar${i}`).style.width = `${percent}%`;
    }
  }

  function setActive(who) {
    for (const i of [0, 1]) $(`panel${i}`).classList.toggle("active", who === i);
  }

  function setWinner(who) {
    for (const i of [0, 1]) $(`panel${i}`).classList.toggle("winner", who === i);
  }

  function setStatus(text) {
    const status = $("turn-status");
    if (status.textContent !== text) status.textContent = text;
  }

  /* ---------- Dice faces ---------- */

  // Pip positions on a 3 x 3 grid (row, column) for faces 1 to 6.
  const PIPS = {
    1: [[2, 2]],
    2: [[1, 1], [3, 3]],
    3: [[1, 1], [2, 2], [3, 3]],
    4: [[1, 1], [1, 3], [3, 1], [3, 3]],
    5: [[1, 1], [1, 3], [2, 2], [3, 1], [3, 3]],
    6: [[1, 1], [2, 1], [3, 1], [1, 3], [2, 3], [3, 3]],
  };

  function drawFace(die, value) {
    die.dataset.value = String(value);
    die.setAttribute("aria-label", String(value));
    die.replaceChildren();
    const pips = PIPS[value];
    if (!pips) {
      die.append(el("span", "die-number", value));  // faces beyond six are written out
      return;
    }
    for (const [row, col] of pips) {
      const pip = el("span", "pip");
      pip.style.gridArea = `${row} / ${col}`;
      die.append(pip);
    }
  }

  function makeDie(value) {
    const die = el("div", "die");
    die.setAttribute("role", "img");
    drawFace(die, value);
    return die;
  }

  function randomFace() {
    return 1 + Math.floor(Math.random() * game.sides);
  }

  function drawDice(values) {
    const box = $("dice");
    box.replaceChildren();
    if (!values.length) {
      box.append(el("span", "dice-empty", say("no_dice")));
      box.setAttribute("aria-label", say("no_dice"));
      return [];
    }
    const dice = values.map(makeDie);
    box.append(...dice);
    box.setAttribute("aria-label", say("dice_shown", { faces: values.join(" ") }));
    return dice;
  }

  /* ---------- One turn: wording, the latest-roll card, the log ---------- */

  function turnGain(turn) {
    if (!Array.isArray(turn.after) || !Array.isArray(turn.before)) return null;
    return turn.after[turn.who] - turn.before[turn.who];
  }

  // "Player 0 rolled 5 dice: 3 4 2 6 5 → 20 (0 → 20)", with the other score if it moved too.
  // Built from spans so the score part never breaks across lines; its text reads the same.
  function turnLine(turn) {
    const line = el("div", "turn-line");
    line.append(...game.move.head(turn));
    const gain = turnGain(turn);
    if (gain === null) {
      line.append(" ", el("span", "turn-score", say("turn_stopped")));
      return line;
    }
    line.append(" ", el("span", "turn-score",
      say("turn_score", { gain, before: turn.before[turn.who], after: turn.after[turn.who] })));
    const other = 1 - turn.who;
    if (turn.before[other] !== turn.after[other]) {
      line.append("; ", el("span", "turn-score",
        say("turn_other", { who: other, before: turn.before[other], after: turn.after[other] })));
    }
    return line;
  }

  function ruleEvent(event) {
    const node = el("div", "rule-event");
    node.append(el("strong", null, event.rule || say("rule")));
    if (event.text) node.append(document.createTextNode(`: ${event.text}`));
    return node;
  }

  function turnNotes(turn) {
    const nodes = (turn.events || []).map(ruleEvent);
    for (const warning of turn.warnings || []) nodes.push(el("div", "warning", warning));
    return nodes;
  }

  function hasCommentary(turn) {
    return Boolean(game.setup && game.setup.commentary && turn.commentary && turn.commentary.trim());
  }

  function logItem(turn) {
    const item = el("li", `turn who${turn.who}`);
    item.append(turnLine(turn));
    item.append(...turnNotes(turn));
    if (hasCommentary(turn)) item.append(el("div", "turn-commentary", turn.commentary.trimEnd()));
    item.append(...game.move.notes(turn));
    if (turn.printed) {
      item.append(el("pre", "turn-printed", say("printed", { file: game.setup.submission, text: turn.printed.trimEnd() })));
    }
    return item;
  }

  function appendLog(turn) {
    const log = $("log");
    log.append(logItem(turn));
    // Scroll the log box itself, not the page, so the chooser stays where the eye is.
    log.scrollTop = log.scrollHeight;
  }

  function clearLatest() {
    $("latest-caption").textContent = say("no_roll_yet");
    $("dice").replaceChildren();
    $("dice").setAttribute("aria-label", say("dice_label"));
    $("rules").replaceChildren();
    $("commentary").replaceChildren();
    show($("commentary"), false);
    $("printed").textContent = "";
    show($("printed-box"), false);
  }

  // The settled state of the latest-roll card for one turn.
  function showLatest(turn, open) {
    const gain = turnGain(turn);
    const who = turn.who === undefined ? 0 : turn.who;
    const caption = $("latest-caption");
    caption.replaceChildren(game.move.caption(turn, playerTitle(who), open));
    if (!open && gain === null) caption.append(" ", say("stopped_by_error"));
    else if (!open) caption.append(" ", say("and_scored"), " ", el("strong", "points", gain));
    game.move.drawDice(turn);
    // The rules box keeps every turn of this reveal, so a person still sees what their own roll
    // did after the computer has answered it.
    const notes = turnNotes(turn);
    if (notes.length) {
      const group = el("div", "rule-group");
      group.append(el("div", "rule-who", playerTitle(who)), ...notes);
      $("rules").append(group);
      // Only the latest few stay here (a watched game reveals dozens); the log keeps them all.
      while ($("rules").children.length > RULE_GROUPS_SHOWN) $("rules").firstElementChild.remove();
    }
    const commentary = $("commentary");
    commentary.textContent = hasCommentary(turn) ? turn.commentary.trimEnd() : "";
    show(commentary, hasCommentary(turn));
    game.move.showSaid(turn);
    $("printed").textContent = turn.printed ? turn.printed.trimEnd() : "";
    show($("printed-box"), Boolean(turn.printed));
  }

  // Remembers which rule a zero-dice roll used, to name it in the chooser's hint.
  function noteZeroRule(turn) {
    if (turn.dice === 0 && turn.events && turn.events.length && turn.events[0].rule) {
      game.zeroRule = turn.events[0].rule;
    }
  }

  function settleTurn(turn) {
    showLatest(turn);
    appendLog(turn);
    game.move.settled(turn);
    if (Array.isArray(turn.after)) setScores(turn.after);
  }

  // Shuffles random faces for a moment, stopping early if the game was abandoned.
  async function shuffle(turn, token) {
    const count = (turn.rolls || []).length;
    $("latest-caption").textContent = game.move.shuffling(turn, playerTitle(turn.who));
    show($("commentary"), false);
    show($("printed-box"), false);
    if (count === 0) {
      drawDice([]);
      await sleep(ZERO_DICE_MS);
      return token === game.token;
    }
    const dice = drawDice(Array.from({ length: count }, randomFace));
    for (const die of dice) die.classList.add("rolling");
    for (let t = 0; t < SHUFFLE_MS; t += SHUFFLE_STEP_MS) {
      await sleep(SHUFFLE_STEP_MS);
      if (token !== game.token) return false;
      for (const die of dice) drawFace(die, randomFace());
    }
    return token === game.token;
  }

  function animating() {
    return $("animate").checked;
  }

  // With animation off, bars and highlights jump straight to their new state too.
  function syncMotionClass() {
    document.body.classList.toggle("still", !animating());
  }

  function stepping() {
    return $("step").checked;
  }

  // Shows Next turn and waits for a press; false when a newer game or move took over meanwhile.
  function waitForStep(token) {
    return new Promise((resolve) => {
      const button = $("next-turn");
      const done = () => {
        button.removeEventListener("click", done);
        show(button, false);
        game.releaseStep = null;
        resolve(token === game.token);
      };
      button.addEventListener("click", done);
      game.releaseStep = done;  // a new game or move lets a waiting reveal go
      show(button, true);
      button.focus();
    });
  }

  // Reveals new turns in order, one press of Next turn each when stepping. Returns false if the
  // game was abandoned meanwhile.
  async function revealTurns(turns, token, quick) {
    $("rules").replaceChildren();
    for (const [i, turn] of turns.entries()) {
      if (stepping() && !quick) {
        setStatus(say("next_turn", { player: playerTitle(turn.who) }));
        if (!(await waitForStep(token))) return false;
      } else if (quick || !animating()) {  // asked again each turn: unchecking the box speeds up at once
        for (const rest of turns.slice(i)) settleTurn(rest);
        return true;
      }
      setActive(turn.who);
      if (animating()) {
        if (!isPerson(turn.who)) setStatus(say("thinking", { player: playerTitle(turn.who) }));
        if (!(await shuffle(turn, token))) return false;
      }
      settleTurn(turn);
      if (animating()) await sleep(SETTLE_MS);
      if (token !== game.token) return false;
    }
    return true;
  }

  /* ---------- The dice chooser ---------- */

  function choiceButtons() {
    return Array.from($("dice-choices").querySelectorAll("button[data-dice]"));
  }

  function buildChooser() {
    const group = $("dice-choices");
    group.replaceChildren();
    for (let k = game.fewest; k <= game.most; k++) {
      const button = el("button", "choice", k);
      button.type = "button";
      button.dataset.dice = String(k);
      button.setAttribute("role", "radio");
      button.addEventListener("click", () => setPick(k, false));
      group.append(button);
    }
    setPick(game.pick, false);
  }

  function rollHint(k) {
    if (k !== 0) return "";
    return game.zeroRule ? say("zero_rule", { rule: game.zeroRule }) : say("zero_rule_unnamed");
  }

  // One checked radio, which is also the only one reached by Tab (roving tabindex).
  function setPick(k, focus) {
    game.pick = Math.max(game.fewest, Math.min(game.most, k));
    for (const button of choiceButtons()) {
      const checked = Number(button.dataset.dice) === game.pick;
      button.setAttribute("aria-checked", String(checked));
      button.setAttribute("aria-label", diceWord(Number(button.dataset.dice)));  // said once the setup came
      button.tabIndex = checked ? 0 : -1;
      if (checked && focus) button.focus();
    }
    $("roll").textContent = say("roll", { dice: diceWord(game.pick) });
    const hint = rollHint(game.pick);
    $("roll-hint").textContent = hint;
    show($("roll-hint"), Boolean(hint));
  }

  function pickedButton() {
    return choiceButtons().find((b) => Number(b.dataset.dice) === game.pick);
  }

  function showChooser(who) {
    $("chooser-label").textContent = personCount() > 1 ? say("how_many_player", { who }) : say("how_many");
    setPick(game.pick, false);
    show($("chooser"), true);
  }

  // The fewest and most dice a move may be, as the edition says ([game] dice): the chooser offers those.
  function prepareChooser(move) {
    game.fewest = move.fewest;
    game.most = move.most;
    buildChooser();
  }

  // "Player 0 rolled 5 dice: 3 4 2 6 5", the head of a turn's line in the log.
  function countHead(turn) {
    const head = [el("span", "turn-head", say("turn_head", { who: turn.who, dice: diceWord(turn.dice) }))];
    const rolls = turn.rolls || [];
    if (rolls.length) head.push(": ", el("span", "turn-rolls", rolls.join(" ")));
    return head;
  }

  function waitForCount(data) {
    showChooser(data.next);
    setStatus(say("choose", { who: data.next }));
    const lost = !document.activeElement || document.activeElement === document.body;
    if (game.refocus || (lost && game.moves.length > 0)) pickedButton().focus();
    game.refocus = false;
    setState("waiting");
  }

  // Digit keys and x/t pick a count from anywhere on the page while a person is to move.
  function onCountKey(event) {
    const active = document.activeElement;
    const onNothing = !active || active === document.body;
    let k = null;
    if (/^[0-9]$/.test(event.key)) k = Number(event.key);
    else if (event.key === "x" || event.key === "X" || event.key === "t" || event.key === "T") k = game.most;
    if (k !== null) {
      event.preventDefault();
      setPick(k, true);  // focus moves to the pick, so Enter next rolls rather than pressing a button
      return;
    }
    if (event.key === "Enter" && onNothing && !event.repeat) {
      event.preventDefault();
      roll();
    }
  }

  /* ---------- A game of actions: a move is an action (roll, hold), asked before each one ---------- */

  // "roll 3, roll 5, hold 2": each action with the die it rolled (data, not a sentence).
  function actionsText(turn) {
    return turn.actions.map((a) => [a.action, ...a.outcomes].join(" ")).join(", ");
  }

  // One line per thing an action's player said (the sentences of the submission's commentary).
  function spokenLine(turn, said) {
    return say("remark", { player: playerTitle(turn.who), text: said.text.trim() });
  }

  function actionNotes(turn) {
    const nodes = [];
    for (const action of turn.actions) {
      for (const said of action.said || []) {
        if (said.spoken) nodes.push(el("div", said.kit ? "turn-commentary kit-words" : "turn-commentary", spokenLine(turn, said)));
      }
    }
    return nodes;
  }

  // The latest action's die and what was said of it: the drawn die as the submission drew it.
  function showRemarks(turn) {
    const box = $("commentary");
    box.replaceChildren();
    const last = turn.actions[turn.actions.length - 1];
    for (const said of (last && last.said) || []) {
      if (said.spoken) box.append(el("div", said.kit ? "remark kit-words" : "remark", spokenLine(turn, said)));
      else box.append(el("pre", "remark-art", said.text.replace(/\s+$/, "")));
    }
    show(box, box.children.length > 0);
  }

  // Every die a turn's actions rolled, as faces, each knowing its number of sides.
  function drawActionDice(turn) {
    const box = $("dice");
    box.replaceChildren();
    const dice = [];
    for (const action of turn.actions) {
      action.outcomes.forEach((face, i) => {
        const die = makeDie(face);
        const sides = action.sides[i];
        die.dataset.sides = String(sides);
        die.classList.add(`sides${sides}`);
        die.title = say("die_label", { sides, face });
        die.setAttribute("aria-label", die.title);
        dice.push(die);
      });
    }
    if (!dice.length) box.append(el("span", "dice-empty", say("no_action_yet")));
    box.append(...dice);
    return dice;
  }

  function actionButtons() {
    return Array.from($("action-buttons").querySelectorAll("button[data-action]"));
  }

  // A key per action: its first letter, when no other action shares it.
  function actionKeys(actions) {
    const keys = {};
    actions.forEach((name, i) => {
      const key = name.charAt(0).toLowerCase();
      if (actions.filter((other) => other.charAt(0).toLowerCase() === key).length === 1) keys[key] = i;
    });
    return keys;
  }

  function buildActions(move) {
    const group = $("action-buttons");
    group.replaceChildren();
    const actions = move.actions;
    actions.forEach((name, i) => {
      const button = el("button", "primary action", name);
      button.type = "button";
      button.dataset.action = String(i);
      button.id = `action-${name}`;
      button.addEventListener("click", () => act(i));
      group.append(button);
    });
    const keys = Object.entries(actionKeys(actions)).map(([key, i]) => `${key} ${actions[i]}`);
    $("action-keys").textContent = keys.length ? say("action_keys", { keys: keys.join(", ") }) : "";
  }

  function finishWaitingForAction(data) {
    game.waiting = data.next;
    $("actions-label").textContent = personCount() > 1
      ? say("turn_total_player", { who: data.next, total: data.turn_total })
      : say("turn_total", { total: data.turn_total });
    $("die-sides").textContent = typeof data.die === "number" ? say("die_sides", { sides: data.die }) : "";
    show($("die-sides"), typeof data.die === "number");
    show($("actions"), true);
    setStatus(say("choose_action", { who: data.next, actions: game.setup.move.actions.join(", ") }));
    const lost = !document.activeElement || document.activeElement === document.body;
    if (game.refocus || (lost && game.moves.length > 0)) actionButtons()[0].focus();
    game.refocus = false;
    setState("waiting");
  }

  async function act(index) {
    if (document.body.dataset.state !== "waiting") return;
    const section = $("actions");
    game.refocus = section.contains(document.activeElement) || document.activeElement === document.body;
    game.moves.push(index);
    show(section, false);
    show($("meter"), false);
    await play(say("acting", { player: playerTitle(game.waiting), action: game.setup.move.actions[index] }));
  }

  function onActionKey(event) {
    const keys = actionKeys(game.setup.move.actions);
    const key = event.key.toLowerCase();
    if (Object.prototype.hasOwnProperty.call(keys, key) && !event.repeat) {
      event.preventDefault();
      act(keys[key]);
    }
  }

  // "Player 0: roll 3, hold 0", the head of a turn's line in the log.
  function actionsHead(turn) {
    return [el("span", "turn-head", say("turn_head_actions", { who: turn.who, actions: actionsText(turn) }))];
  }

  // The latest-roll card's caption for a turn of actions, OPEN while the person is still taking it.
  function actionsCaption(turn, player, open) {
    const actions = actionsText(turn) || say("no_action_yet");
    return open ? say("turn_so_far", { player, actions }) : say("turn_actions", { player, actions });
  }

  /* ---------- The kinds of move: what a person chooses, picked once per setup ---------- */

  // The setup's move names its kind (graders/gui/moves.py): a number of dice once a turn, or one of
  // the game's actions before each one. What the page does differently for the two is here, and
  // nowhere else: applySetup picks the kind's entry once (game.move), and the rest of the page asks it.
  const MOVES = {
    dice: {
      prepare: prepareChooser,  // the chooser's buttons, fewest to most
      head: countHead,  // a turn's line in the log
      notes: () => [],  // what the log shows under a turn's line, after its commentary
      caption: (turn, player) => say("rolled", { player, dice: diceWord(turn.dice) }),
      drawDice: (turn) => drawDice(turn.rolls || []),
      showSaid: () => {},  // the commentary box: the turn's commentary, as it is
      shuffling: (turn, player) => say("rolls", { player, dice: diceWord(turn.dice) }),
      settled: noteZeroRule,
      wait: waitForCount,  // a person to move: the chooser
      key: onCountKey,
    },
    actions: {
      prepare: buildActions,  // a button per action
      head: actionsHead,
      notes: actionNotes,
      caption: actionsCaption,
      drawDice: drawActionDice,
      showSaid: showRemarks,
      shuffling: (turn, player) => say("thinking", { player }),
      settled: () => {},
      wait: finishWaitingForAction,
      key: onActionKey,
    },
  };

  /* ---------- Meter, game over, errors ---------- */

  function showMeter(data) {
    const meter = $("meter");
    const usable = game.setup && game.setup.meter && typeof data.chance === "number" && data.waiting;
    if (!usable) {
      show(meter, false);
      meter.removeAttribute("data-chance");
      return;
    }
    const percent = `${(data.chance * 100).toFixed(1)}%`;
    $("meter-label").textContent = personCount() > 1 ? say("meter_player", { who: data.next }) : say("meter");
    $("meter-value").textContent = percent;
    $("meter-fill").style.width = `${Math.max(0, Math.min(100, data.chance * 100))}%`;
    meter.dataset.chance = String(data.chance);
    show(meter, true);
  }

  function finalScoreText(scores, winner) {
    return say("final_score", { winner: scores[winner], loser: scores[1 - winner] });
  }

  function showGameOver(data) {
    const winner = data.winner;
    const scores = data.scores || [0, 0];
    const score = finalScoreText(scores, winner);
    let sentence;
    if (isPerson(winner) && personCount() === 1) sentence = say("you_win", { score });
    else sentence = say("wins", { player: playerTitle(winner), score });
    $("winner").textContent = sentence;
    show($("game-over"), true);
    setWinner(winner);
    setStatus(say("game_over"));  // the winner is said once, in the game-over panel (read aloud too)
  }

  function setOptionalText(id, text) {
    const node = $(id);
    node.textContent = text || "";
    show(node, Boolean(text));
  }

  // "In boar_brawl, line 12", or the part of it the error knows; "" when it knows neither.
  function errorPlace(err) {
    const line = err.line !== undefined && err.line !== null;
    if (err.function) return line ? say("in_function_line", { function: err.function, line: err.line })
      : say("in_function", { function: err.function });
    return line ? say("at_line", { line: err.line }) : "";
  }

  function showError(error) {
    const err = error || {};
    $("error-title").textContent = err.title || OFFLINE_TEXT.wentWrong;
    setOptionalText("error-where", errorPlace(err));
    setOptionalText("error-detail", err.detail);
    $("error-trace").textContent = err.traceback || "";
    show($("error-trace-box"), Boolean(err.traceback));
    setOptionalText("error-hint", err.hint);
    show($("error"), true);
  }

  function hideError() {
    show($("error"), false);
  }

  /* ---------- Playing ---------- */

  function resetBoard() {
    hideError();
    show($("game-over"), false);
    show($("chooser"), false);
    show($("actions"), false);
    show($("meter"), false);
    setWinner(null);
    setActive(null);
    setScores([0, 0]);
    clearLatest();
    $("log").replaceChildren();
    $("seed").textContent = "–";
  }

  // Reads the setup again, keeping the choices made: hog.py may have gained, renamed or fixed
  // strategies since the page was opened. False when the game cannot start.
  async function refreshSetup() {
    const chosen = [$("player0").value, $("player1").value];
    const variant = $("variant") ? $("variant").value : null;
    const result = await api("/api/setup");
    if (result.error) {
      stop(result.error);
      return false;
    }
    applySetup(result.data);
    fillPlayerSelect($("player0"), result.data, chosen[0] || "person");
    fillPlayerSelect($("player1"), result.data, chosen[1] || defaultOpponent(result.data));
    if (variant && $("variant")) {
      $("variant").value = variant;
      if (!$("variant").value) $("variant").selectedIndex = 0;
      $("variant").dispatchEvent(new Event("change"));
    }
    if (result.data.error) {
      stop(result.data.error);
      return false;
    }
    return true;
  }

  async function newGame(fresh) {
    if (!game.setup) {
      await loadSetup();  // the server was not reachable before: try from the top
      return;
    }
    if (!fresh) {
      setState("busy");
      if (!(await refreshSetup())) return;
    }
    game.players = [$("player0").value || "person", $("player1").value || "person"];
    const variant = $("variant");
    if (variant) game.variant = variant.value;
    // A new game leaves its seed to the server: --seed plus this page's game number, or a random one.
    game.seed = null;
    game.number += 1;
    game.moves = [];
    game.shown = 0;
    game.shownKeys = [];
    game.zeroRule = null;
    resetBoard();
    updatePanelNames();
    await play(isPerson(0) ? say("starting") : say("thinking", { player: playerTitle(0) }));
  }

  async function roll() {
    if (document.body.dataset.state !== "waiting") return;
    const chooser = $("chooser");
    // Someone choosing in the chooser wants to stay there for the next move.
    game.refocus = chooser.contains(document.activeElement) || document.activeElement === document.body;
    game.moves.push(game.pick);
    show(chooser, false);
    show($("meter"), false);
    await play(say("rolling", { dice: diceWord(game.pick) }));
  }

  // One request to the server, then the reveal of the new turns and the resulting state.
  async function play(busyText) {
    const token = ++game.token;
    if (game.releaseStep) game.releaseStep();  // a reveal still waiting for Next turn is over
    setStatus(busyText);
    setState("busy");
    const result = await api("/api/play", {
      players: game.players,
      variant: game.variant,
      seed: game.seed,
      moves: game.moves,
      game: game.number,
    });
    if (token !== game.token) return;  // a newer game or move has taken over
    if (result.error) {
      stop(result.error);
      return;
    }
    await handlePlay(result.data, token);
  }

  async function handlePlay(data, token) {
    if (data.seed !== undefined && data.seed !== null) {
      game.seed = data.seed;
      $("seed").textContent = String(data.seed);
    }
    setGoal(data.goal);
    if (!Array.isArray(data.turns)) {
      // The replay failed as a whole (it never finished, or hog.py ended the program): the board
      // keeps what it showed, and the error says what happened.
      stop(data.error || { title: say("not_replayed") });
      return;
    }
    const turns = data.turns;
    const keys = turns.map((turn) => JSON.stringify(turn));
    const changed = game.shownKeys.some((key, i) => key !== keys[i]);
    if (changed) {
      // The replay differs from what is shown (hog.py changed mid-game): show it afresh, at once.
      $("log").replaceChildren();
      for (const turn of turns) settleTurn(turn);
      game.shown = turns.length;
    }
    const fresh = turns.slice(game.shown);
    // A very long reveal (an endless game, say) is shown at once rather than animated for minutes.
    const quick = fresh.length > MOST_ANIMATED || (data.error && fresh.length > 1);
    if (!(await revealTurns(fresh, token, quick))) return;
    game.shown = turns.length;
    game.shownKeys = keys;
    setScores(data.scores);
    if (data.current) showLatest(data.current, true);
    if (data.error) stop(data.error);
    else if (data.over) finishOver(data);
    else if (data.waiting && (data.next === 0 || data.next === 1)) finishWaiting(data);
    else finishIdle();
  }

  function stop(error) {
    setActive(null);
    show($("chooser"), false);
    show($("actions"), false);
    show($("meter"), false);
    showError(error);
    setStatus(say("stopped"));
    if (game.refocus) $("new-game").focus();
    game.refocus = false;
    setState("error");
  }

  function finishOver(data) {
    setActive(null);
    show($("chooser"), false);
    show($("actions"), false);
    show($("meter"), false);
    showGameOver(data);
    if (game.refocus) $("play-again").focus();
    game.refocus = false;
    setState("over");
  }

  function finishWaiting(data) {
    setActive(data.next);
    showMeter(data);
    game.move.wait(data);
  }

  // Not waiting, not over, no error: nothing more will happen until New game.
  function finishIdle() {
    setActive(null);
    setStatus(say("idle"));
    setState("idle");
  }

  /* ---------- Keyboard ---------- */

  function typingInControl(target) {
    return Boolean(target && target.closest && target.closest("select,input,textarea,[contenteditable]"));
  }

  // A key pressed anywhere on the page while a person is to move: the move's own keys.
  function onDocumentKey(event) {
    if (document.body.dataset.state !== "waiting") return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (typingInControl(event.target)) return;
    game.move.key(event);
  }

  // Arrow keys move the pick like a radio group; Enter anywhere in the chooser rolls.
  function onChooserKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const inGroup = event.target.closest && event.target.closest("#dice-choices");
    const moves = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
    if (inGroup && event.key in moves) {
      event.preventDefault();
      setPick(game.pick + moves[event.key], true);
    } else if (inGroup && (event.key === "Home" || event.key === "End")) {
      event.preventDefault();
      setPick(event.key === "Home" ? game.fewest : game.most, true);
    } else if (event.key === "Enter") {
      event.preventDefault();  // also stops the focused button's own click: one roll only
      if (!event.repeat) roll();  // a held key must not send a second move
    }
  }

  /* ---------- Start ---------- */

  // Animation defaults to off for people who ask their system for less motion.
  function initAnimateToggle() {
    const box = $("animate");
    const stored = readStored(ANIMATE_KEY);
    const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    box.checked = stored === null ? !reduce : stored === "1";
    syncMotionClass();
    box.addEventListener("change", () => {
      writeStored(ANIMATE_KEY, box.checked ? "1" : "0");
      syncMotionClass();
    });
  }

  function init() {
    initAnimateToggle();
    buildChooser();
    $("setup-form").addEventListener("submit", (event) => {
      event.preventDefault();
      newGame();
    });
    $("play-again").addEventListener("click", () => {
      game.refocus = true;  // the button hides itself; put focus on the dice chooser next
      newGame();
    });
    $("roll").addEventListener("click", () => roll());
    $("chooser").addEventListener("keydown", onChooserKey);
    document.addEventListener("keydown", onDocumentKey);
    loadSetup();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
