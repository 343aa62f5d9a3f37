// How an entry's dice read under its system's rules, for the browser's Verify (verify-dice.js): a
// port of the reading of dice in rules/cogent.py, dad6.py and cold_stars.py — per-die
// readings, the figures an entry records and its outcome band — and of how the roll forms and
// follow-ups (rolls/rolling/forms, rolls/rolling/followups, rolls/table) feed them from an
// entry's options. Only reading, never odds or pools. tests/browser/test_verify_dice.py runs this
// against the Python engine over many generated rolls of every system, so the port stays honest.

export const OUTCOME_LABELS = {
  critical_success: "Critical success",
  success: "Success",
  costly_success: "Costly success",
  choice: "Your choice: costly success or failure",
  failure: "Failure",
  critical_failure: "Critical failure",
  contest_roll: "Rolled for a contest",
};

// One side's roll in a contest: its band is the contest's verdict, read on another entry.
const CONTEST_ROLL = "contest_roll";

class Unreadable extends Error {}

function plural(count, word, many = `${word}s`) {
  return `${count} ${count === 1 ? word : many}`;
}

function int(value, what) {
  if (!Number.isInteger(value)) throw new Unreadable(`its ${what} is not a whole number`);
  return value;
}

// --- Cogent Roleplay (rules/cogent.py) ---------------------------------------------------

const COGENT = {
  winFace: 4, // Book: 4–6 is a win
  destinyWinFace: 3, // Book: destiny spent before the roll makes 3–6 wins
  deathblow: 5, // Book: injury levels stop at 5
};

// resolve()'s _band: wins counted against the CL; no wins at all (before the assist) is critical.
function cogentBand(rolled, after, assist, cl) {
  const wins = Math.max(0, rolled + after + assist);
  if (wins >= cl) return [wins, "success"];
  return [wins, rolled + after === 0 ? "critical_failure" : "failure"];
}

function cogentRead(data) {
  const o = data.options || {};
  const before = Boolean(o.destiny_before);
  const threshold = before ? COGENT.destinyWinFace : COGENT.winFace;
  const faces = data.faces.map((d) => ({
    kind: "d6",
    face: d.face,
    reading: d.face >= threshold ? "win" : "loss",
  }));
  const rolled = faces.filter((d) => d.reading === "win").length;
  if (data.outcome === CONTEST_ROLL) {
    return { faces, outcome: CONTEST_ROLL, result: { wins: rolled }, summary: plural(rolled, "win") };
  }
  const cl = int(o.challenge_level, "Challenge Level");
  // An assist roll is read bare; a roll and its destiny follow-up keep the assist they took, and
  // destiny after the roll counts only on the follow-up that spent it.
  const isAssist = data.kind === "assist";
  const assist = isAssist ? 0 : int((o.assist && o.assist.wins) ?? 0, "assist");
  const after = data.kind === "destiny" ? int(data.result.destiny_after, "destiny after") : 0;
  const [wins, outcome] = cogentBand(rolled, after, assist, cl);
  const result = { wins, rolled_wins: rolled, destiny_after: after, margin: wins - cl };
  if (!isAssist && o.reflexive && outcome !== "success") {
    result.injury_level = Math.min(COGENT.deathblow, cl - wins);
  }
  if (isAssist) result.assist = Math.max(-cl, Math.min(cl, rolled - cl));
  return { faces, outcome, result, summary: `${plural(wins, "win")} against CL ${cl}` };
}

// --- DAD6 Skills (rules/dad6.py) ----------------------------------------------------------

const DAD6 = {
  target: 6, // Book: the target number is always six
  competence: { unfamiliar: 0, familiar: 0, trained: 1, expert: 2, master: 3 },
  task: { mundane: 0, specialized: -1, expert: -2 },
  severity: { 1: "Almost!", 2: "Close!", 3: "A miss!", 4: "Lookout!", 5: "DUCK!" },
  noMissingDieMargin: 1, // entries from before `beyond`: every rolled die scored and still short
};

function dad6Modifier(o) {
  const bonus = DAD6.competence[o.competence];
  const task = DAD6.task[o.task];
  if (bonus === undefined || task === undefined) {
    throw new Unreadable("its competence or task is not one of DAD6's");
  }
  return bonus + task;
}

function dad6Read(data) {
  if (data.kind !== "roll") return null;
  const o = data.options || {};
  const modifier = dad6Modifier(o);
  const difficulty = int(o.difficulty, "Difficulty");
  const banked = int(o.traded_boons, "traded boons") + int(o.forward_boons ?? 0, "rolled-forward boons");
  const faces = data.faces.map((d) => {
    const value = d.face + modifier;
    return { kind: "d6", face: d.face, value, reading: value >= DAD6.target ? "boon" : "no_boon" };
  });
  const boons = banked + faces.filter((d) => d.reading === "boon").length;
  const success = boons >= difficulty;
  // A roll whose odds of success were 0 is "beyond the character" and has no failure scope
  // (rules/dad6.py: Result.beyond). Entries written before that was recorded read as they did.
  const recordsBeyond = "beyond" in (data.result || {});
  const most = banked + (modifier + 6 >= DAD6.target ? faces.length : 0);
  const beyond = most < difficulty;
  let margin = null;
  if (!success && (!beyond || !recordsBeyond)) {
    // Book: "use the closest roll", the best die that did not score.
    const misses = faces.filter((d) => d.value < DAD6.target).map((d) => d.value);
    margin = misses.length ? DAD6.target - Math.max(...misses) : DAD6.noMissingDieMargin;
  }
  const result = {
    boons,
    margin_of_failure: margin,
    severity: margin === null ? null : DAD6.severity[Math.min(margin, 5)],
    bought_boons: 0,
    extra_boons: Math.max(0, boons - difficulty),
  };
  if (recordsBeyond) result.beyond = beyond;
  const outcome = success ? "success" : "failure";
  return { faces, outcome, result, summary: `${plural(boons, "boon")} against Difficulty ${difficulty}` };
}

// --- Cold Stars (rules/cold_stars.py) -----------------------------------------------------

// FACE_TABLE: index 0 is face 1 … index 9 is face 10.
const COLD_STARS_FACES = {
  ability: [...Array(5).fill("blank"), ...Array(5).fill("success")],
  skill: [...Array(3).fill("blank"), ...Array(6).fill("success"), "critical_success"],
  risk: [...Array(5).fill("blank"), ...Array(4).fill("failure"), "critical_failure"],
};

// resolve(): criticals first, then read by pool type.
function coldStarsBand(symbols, successes) {
  if (symbols.skill.includes("critical_success")) return "critical_success";
  if (symbols.risk.includes("critical_failure")) return "critical_failure";
  if (symbols.risk.length) {
    const failures = symbols.risk.filter((s) => s === "failure").length;
    if (successes && failures) return "costly_success";
    if (successes) return "success";
    if (failures) return "failure";
    return "costly_success"; // all blanks under Risk: inaction under pressure is not free
  }
  return successes ? "success" : "choice";
}

function coldStarsSummary(faces) {
  const names = [
    ["critical_success", "critical success", "critical successes"],
    ["success", "success", "successes"],
    ["failure", "failure"],
    ["critical_failure", "critical failure"],
    ["blank", "blank"],
  ];
  return names
    .map(([code, one, many]) => [faces.filter((d) => d.reading === code).length, one, many])
    .filter(([count]) => count)
    .map(([count, one, many]) => plural(count, one, many))
    .join(", ");
}

function coldStarsRead(data) {
  if (data.kind !== "roll" && data.kind !== "correct") return null;
  const symbols = { ability: [], skill: [], risk: [] };
  const faces = data.faces.map((d) => {
    const table = COLD_STARS_FACES[d.kind];
    if (!table) throw new Unreadable(`a ${d.kind} die is not a Cold Stars die`);
    symbols[d.kind].push(table[d.face - 1]);
    return { kind: d.kind, face: d.face, reading: table[d.face - 1] };
  });
  const hits = [...symbols.ability, ...symbols.skill];
  const successes = hits.filter((s) => s === "success" || s === "critical_success").length;
  const summary = coldStarsSummary(faces);
  if (data.outcome === CONTEST_ROLL) {
    return { faces, outcome: CONTEST_ROLL, result: { successes }, summary };
  }
  return { faces, outcome: coldStarsBand(symbols, successes), result: {}, summary };
}

// --- Which reading an entry takes ---------------------------------------------------------------

const READERS = {
  cogent: (data) => (["roll", "assist", "destiny"].includes(data.kind) ? cogentRead(data) : null),
  dad6: dad6Read,
  cold_stars: coldStarsRead,
};

// { faces, outcome, result, summary } as the engine would record them for this entry, or
// { unchecked: why } for an entry this page can't re-read (its proof and faces still verify).
export function readEntry(data) {
  const reader = READERS[data.system];
  const kind = `${data.kind}`.replace(/_/g, " ");
  if (!reader) return { unchecked: `The outcome was not re-checked: this page can't read ${data.system} rolls.` };
  try {
    const read = reader(data);
    if (read) return read;
    return { unchecked: `The outcome was not re-checked: this page doesn't re-read the dice of ${kind} entries.` };
  } catch (error) {
    if (!(error instanceof Unreadable)) throw error;
    return { unchecked: `The outcome was not re-checked: ${error.message}.` };
  }
}
