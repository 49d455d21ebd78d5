"use strict";
// privbench rating form: one answer at a time, ratings kept in localStorage (per survey
// and rater), a download of the rater's rating file; served by the review app it also
// saves every rating to the app (PUT /api/ratings/SURVEY/ITEM?rater=NAME).
(function () {
  const data = JSON.parse(document.getElementById("rating-data").textContent);
  const items = data.items;
  const scale = data.scale;
  const prefix = "privbench-rating:" + data.survey;
  const served = location.protocol === "http:" || location.protocol === "https:";
  const token = new URLSearchParams(location.search).get("token");
  const byId = (id) => document.getElementById(id);
  const memory = {};
  let storageWorks = true;
  let rater = "";
  let ratings = {};
  let position = 0;

  function load(key) {
    try {
      const text = localStorage.getItem(key);
      return text === null ? null : JSON.parse(text);
    } catch (error) {
      storageWorks = false;
      return key in memory ? memory[key] : null;
    }
  }

  function store(key, value) {
    memory[key] = value;
    try {
      localStorage.setItem(key, JSON.stringify(value));
    } catch (error) {
      storageWorks = false;
    }
  }

  function parseScore(text) {
    const cleaned = text.trim().replace(",", ".");
    if (cleaned === "") return null;
    if (!/^\d+(\.\d+)?$/.test(cleaned)) return NaN;
    const value = Number(cleaned);
    return value >= 0 && value <= scale ? value : NaN;
  }

  function ratedCount() {
    return items.filter((item) => typeof ratings[item.id] === "number").length;
  }

  function apiBase() {
    const path = location.pathname.replace(/\/rate\/[^/]*\/?$/, "");
    return location.origin + path + "/api/ratings/" + encodeURIComponent(data.survey);
  }

  function withAuth(url) {
    const query = "rater=" + encodeURIComponent(rater) + (token ? "&token=" + encodeURIComponent(token) : "");
    return url + (url.includes("?") ? "&" : "?") + query;
  }

  function say(id, text, kind) {
    const element = byId(id);
    element.textContent = text;
    element.className = "message" + (kind ? " " + kind : "");
  }

  function sendToServer(itemId, score) {
    if (!served) return;
    fetch(withAuth(apiBase() + "/" + encodeURIComponent(itemId)), {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ score: score }),
    }).then((response) => {
      if (response.ok) say("server", "Saved on the study's server too.", "ok");
      else say("server", "Not saved on the server (HTTP " + response.status + "); kept in this browser.", "bad");
    }).catch(() => say("server", "The server cannot be reached; your rating is kept in this browser.", "bad"));
  }

  function persist() {
    store(prefix + ":rater:" + rater, { ratings: ratings, position: position });
  }

  function setRating(itemId, score) {
    if (score === null) delete ratings[itemId];
    else ratings[itemId] = score;
    persist();
    sendToServer(itemId, score);
  }

  function render() {
    const item = items[position];
    byId("question").textContent = item.question;
    byId("reference").textContent = item.reference;
    byId("answer").textContent = item.answer;
    const hasImage = typeof item.image === "string" && item.image.startsWith("data:image/");
    byId("figure").classList.toggle("hidden", !hasImage);
    byId("noimage").classList.toggle("hidden", hasImage);
    if (hasImage) byId("image").src = item.image;
    else byId("image").removeAttribute("src");
    const score = ratings[item.id];
    byId("score").value = typeof score === "number" ? String(score) : "";
    const done = ratedCount();
    byId("progress").textContent = done + " of " + items.length + " rated";
    byId("position").textContent = "answer " + (position + 1) + " of " + items.length;
    byId("meter").style.width = (100 * done / items.length) + "%";
    byId("who").textContent = rater;
    byId("previous").disabled = position === 0;
    byId("next").textContent = position === items.length - 1 ? "Save" : "Save and next";
    const jump = byId("jump");
    Array.from(jump.children).forEach((button, index) => {
      button.classList.toggle("rated", typeof ratings[items[index].id] === "number");
      button.classList.toggle("current", index === position);
    });
    if (done === items.length) say("message", "All answers rated. Press Download my ratings and send the file to the researcher.", "ok");
    else if (!storageWorks) say("message", "This browser does not keep data for this page: download your ratings before closing it.", "bad");
    byId("score").focus();
  }

  function commit() {
    const score = parseScore(byId("score").value);
    if (Number.isNaN(score)) {
      say("message", "Enter a number from 0 to " + scale + (scale === 1 ? " (e.g. 0.7)." : " (e.g. 7)."), "bad");
      return false;
    }
    if (score !== ratings[items[position].id]) setRating(items[position].id, score);
    say("message", "");
    return true;
  }

  function go(index) {
    position = Math.max(0, Math.min(items.length - 1, index));
    persist();
    render();
  }

  function fromServer() {
    if (!served) return;
    fetch(withAuth(apiBase())).then((response) => (response.ok ? response.json() : null)).then((saved) => {
      if (!saved || typeof saved.ratings !== "object") return;
      let added = false;
      for (const item of items) {
        const score = saved.ratings[item.id];
        if (typeof score === "number" && typeof ratings[item.id] !== "number") {
          ratings[item.id] = score;
          added = true;
        }
      }
      if (added) { persist(); render(); }
    }).catch(() => say("server", "The server cannot be reached; ratings are kept in this browser.", "bad"));
  }

  function begin(name) {
    rater = name;
    store(prefix + ":rater", rater);
    const saved = load(prefix + ":rater:" + rater);
    ratings = saved && typeof saved.ratings === "object" && saved.ratings ? saved.ratings : {};
    position = saved && Number.isInteger(saved.position) ? saved.position : 0;
    position = Math.max(0, Math.min(items.length - 1, position));
    byId("start").classList.add("hidden");
    byId("rating").classList.remove("hidden");
    say("message", "");
    render();
    fromServer();
  }

  function download() {
    if (!commit()) return;
    const document_ = {
      format: "privbench-ratings",
      version: 1,
      survey: data.survey,
      rater: rater,
      scale: scale,
      ratings: Object.fromEntries(items.filter((i) => typeof ratings[i.id] === "number").map((i) => [i.id, ratings[i.id]])),
    };
    const blob = new Blob([JSON.stringify(document_, null, 1) + "\n"], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "ratings-" + data.survey + "-" + rater.replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 40) + ".json";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    const done = ratedCount();
    say("message", "Downloaded " + done + " of " + items.length + " ratings" + (done < items.length ? " (some are still unrated)." : "."), done < items.length ? "bad" : "ok");
  }

  items.forEach((item, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = String(index + 1);
    button.addEventListener("click", () => { if (commit()) go(index); });
    byId("jump").appendChild(button);
  });
  byId("begin").addEventListener("click", () => {
    const name = byId("rater").value.trim();
    if (!name) { say("start-message", "Type your name or participant code first.", "bad"); return; }
    begin(name);
  });
  byId("rater").addEventListener("keydown", (event) => { if (event.key === "Enter") byId("begin").click(); });
  byId("score").addEventListener("keydown", (event) => { if (event.key === "Enter") byId("next").click(); });
  byId("score").addEventListener("input", () => {
    const score = parseScore(byId("score").value);
    if (!Number.isNaN(score)) { say("message", ""); }
  });
  byId("next").addEventListener("click", () => { if (commit()) go(position + 1); });
  byId("previous").addEventListener("click", () => { if (commit()) go(position - 1); });
  byId("download").addEventListener("click", download);
  byId("switch").addEventListener("click", () => {
    if (!commit()) return;
    byId("rating").classList.add("hidden");
    byId("start").classList.remove("hidden");
    byId("rater").value = "";
    byId("rater").focus();
  });
  const last = load(prefix + ":rater");
  if (typeof last === "string" && last) begin(last);
  document.body.dataset.ready = "1";
})();
