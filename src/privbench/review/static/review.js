// The review page: one capture at a time, its boxes editable with Annotorious.
// Every text from the dataset, a model or an annotator is set with textContent, never
// parsed as HTML. Edits not yet saved are kept per image while navigating, and a save
// refused as stale (409) leaves them on screen with a visible message. A new box has no
// category until the annotator picks one (an image with such a box cannot be accepted),
// and a save whose answer is lost is checked against the server before saying anything.
"use strict";

(() => {
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  const chosenAnnotator = params.get("annotator");
  const CATEGORIES = ["direct", "indirect", "near_miss"];
  const COLORS = { direct: "#e74c3c", indirect: "#f39c12", near_miss: "#3498db" };
  const UNSET_COLOR = "#d0d0d0"; // a box whose category is not chosen yet
  const $ = (id) => document.getElementById(id);

  let ids = [];
  let statuses = {};
  let index = 0;
  let anno = null;
  let current = null; // {id, width, height, version, status}
  let selectedId = null;
  let dirty = false;
  let conflict = null; // {status, latest} after a 409
  let sequence = 0;
  let busy = false;
  const attrs = new Map(); // Annotorious annotation id -> {name, category, why}
  const pending = new Map(); // image id -> {factors, version}: edits not saved yet

  function api(path, options = {}) {
    const url = new URL(path, location.href);
    url.search = "";
    if (chosenAnnotator) url.searchParams.set("annotator", chosenAnnotator);
    const headers = { Authorization: "Bearer " + token, ...(options.headers || {}) };
    return fetch(url, { ...options, headers, cache: "no-store" });
  }

  async function detailOf(response) {
    try {
      const body = await response.json();
      return typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail);
    } catch (_) {
      return response.statusText || String(response.status);
    }
  }

  function showMessage(text, kind = "error") {
    $("message").hidden = false;
    $("message").className = kind;
    $("message-text").textContent = text;
    $("reload-image").hidden = kind !== "conflict";
    $("overwrite").hidden = kind !== "conflict";
  }

  function clearMessage() {
    $("message").hidden = true;
    conflict = null;
  }

  function setDirty(value) {
    dirty = value;
    $("dirty").hidden = !value;
  }

  // ---- boxes: Annotorious shapes <-> [x1, y1, x2, y2] ----

  function shapeOf(id, box) {
    const [x1, y1, x2, y2] = box;
    const geometry = { x: x1, y: y1, w: x2 - x1, h: y2 - y1,
      bounds: { minX: x1, minY: y1, maxX: x2, maxY: y2 } };
    return { id, bodies: [], target: { annotation: id, selector: { type: "RECTANGLE", geometry } } };
  }

  function boxOf(annotation) {
    // the axis-aligned bounds: a rotated rectangle is saved as the box around it
    const b = annotation.target.selector.geometry.bounds;
    const clamp = (v, hi) => Math.round(Math.min(Math.max(v, 0), hi) * 10) / 10;
    return [clamp(b.minX, current.width), clamp(b.minY, current.height),
      clamp(b.maxX, current.width), clamp(b.maxY, current.height)];
  }

  function currentFactors() {
    if (!anno) return [];
    return anno.getAnnotations().map((a) => {
      const meta = attrs.get(a.id) || { name: "", category: null, why: "" };
      return { name: meta.name, category: meta.category || null, why: meta.why, box: boxOf(a) };
    });
  }

  function style(annotation, state) {
    const meta = attrs.get(annotation.id);
    const color = (meta && COLORS[meta.category]) || UNSET_COLOR;
    const selected = state && state.selected;
    return { stroke: color, strokeWidth: selected ? 3 : 2, fill: color, fillOpacity: selected ? 0.25 : 0.1 };
  }

  // ---- the side panel ----

  function renderBoxes() {
    const list = $("boxes");
    const items = anno ? anno.getAnnotations() : [];
    list.replaceChildren(...items.map((a) => {
      const meta = attrs.get(a.id) || {};
      const li = document.createElement("li");
      li.dataset.id = a.id;
      if (a.id === selectedId) li.classList.add("selected");
      const badge = document.createElement("span");
      badge.className = "category " + (CATEGORIES.includes(meta.category) ? meta.category : "unset");
      badge.textContent = meta.category || "no category";
      const name = document.createElement("span");
      if (meta.name) name.textContent = meta.name;
      else { name.textContent = "(no name yet)"; name.className = "missing"; }
      li.append(badge, name);
      li.addEventListener("click", () => select(a.id));
      return li;
    }));
  }

  function renderForm() {
    const meta = selectedId ? attrs.get(selectedId) : null;
    $("box-form").hidden = !meta;
    if (!meta) return;
    $("box-name").value = meta.name;
    $("box-category").value = meta.category || "";
    $("box-why").value = meta.why;
    renderCoords();
  }

  function renderCoords() {
    const a = selectedId && anno ? anno.getAnnotationById(selectedId) : null;
    $("box-coords").textContent = a ? "box " + JSON.stringify(boxOf(a)) : "";
  }

  function select(id) {
    if (!anno) return;
    anno.setSelected(id, true);
    selectedId = id;
    renderForm();
    renderBoxes();
  }

  function editSelected(field, value) {
    const meta = selectedId ? attrs.get(selectedId) : null;
    if (!meta) return;
    meta[field] = field === "category" ? value || null : value;
    setDirty(true);
    if (field === "category") anno.setStyle(style);
    renderBoxes();
  }

  function deleteSelected() {
    if (!anno || !selectedId) return;
    const id = selectedId;
    anno.cancelSelected();
    anno.removeAnnotation(id);
    attrs.delete(id);
    selectedId = null;
    setDirty(true);
    renderForm();
    renderBoxes();
  }

  async function refreshProgress() {
    const response = await api("api/stats");
    if (!response.ok) return;
    const stats = await response.json();
    // reviewed: every verdict (accepted, needs work, discarded); accepted shown apart
    $("progress").textContent = `reviewed ${stats.reviewed} of ${stats.total} · accepted ${stats.accepted}`;
    const others = Object.entries(stats.annotators).map(
      ([person, counts]) => `${person} ${counts.reviewed} reviewed, ${counts.accepted} accepted`);
    $("per-annotator").textContent = others.length ? "per annotator: " + others.join(" · ") : "";
  }

  // ---- one image ----

  function stash() {
    if (current && dirty) pending.set(current.id, { factors: currentFactors(), version: current.version });
  }

  function mount(data, factors) {
    if (anno) anno.destroy();
    attrs.clear();
    selectedId = null;
    const img = document.createElement("img");
    img.alt = "capture " + data.id;
    img.width = data.width;
    img.height = data.height;
    img.src = "images/" + encodeURIComponent(data.id) + "?token=" + encodeURIComponent(token);
    $("canvas").replaceChildren(img);
    return new Promise((resolve, reject) => {
      img.addEventListener("error", () => reject(new Error("the capture did not load")));
      img.addEventListener("load", () => {
        anno = Annotorious.createImageAnnotator(img, { drawingEnabled: true, drawingMode: "drag", style });
        anno.setDrawingTool("rectangle");
        const shapes = factors.map((f) => {
          const id = "box-" + ++sequence;
          attrs.set(id, { name: f.name || "", category: CATEGORIES.includes(f.category) ? f.category : null, why: f.why || "" });
          return shapeOf(id, f.box);
        });
        anno.setAnnotations(shapes);
        anno.on("createAnnotation", (a) => {
          attrs.set(a.id, { name: "", category: null, why: "" }); // chosen by the annotator
          setDirty(true);
          selectedId = a.id;
          renderForm();
          renderBoxes();
          $("box-name").focus();
        });
        anno.on("updateAnnotation", () => { setDirty(true); renderBoxes(); renderCoords(); });
        anno.on("deleteAnnotation", (a) => { attrs.delete(a.id); setDirty(true); renderBoxes(); });
        anno.on("selectionChanged", (selected) => {
          // a click outside the box (into the form) keeps the form on the box last selected
          if (selected.length) selectedId = selected[0].id;
          else if (selectedId && !anno.getAnnotationById(selectedId)) selectedId = null;
          renderForm();
          renderBoxes();
        });
        resolve();
      });
    });
  }

  async function show(i) {
    if (busy || !ids.length) return;
    busy = true;
    try {
      stash();
      index = (i + ids.length) % ids.length;
      const id = ids[index];
      const response = await api("api/images/" + encodeURIComponent(id));
      if (!response.ok) { showMessage("could not load " + id + ": " + await detailOf(response)); return; }
      const data = await response.json();
      const kept = pending.get(id);
      current = { id, width: data.width, height: data.height, version: kept ? kept.version : data.version, status: data.status };
      const factors = kept ? kept.factors : data.annotation ? data.annotation.factors : data.draft;
      await mount(data, factors);
      setDirty(Boolean(kept));
      $("image-id").textContent = id;
      $("image-position").textContent = `${index + 1} / ${ids.length}`;
      $("image-status").textContent = data.status;
      if (kept && kept.version !== data.version) {
        showMessage("Saved elsewhere since you edited this image: reload to see that version, or save yours over it.", "conflict");
        conflict = { status: data.status === "draft" ? "needs_work" : data.status, latest: data.version };
      } else if (!conflict) {
        clearMessage();
      }
      renderBoxes();
      renderForm();
      document.body.dataset.image = id;
      document.body.dataset.ready = "1";
    } catch (error) {
      showMessage(String(error.message || error));
    } finally {
      busy = false;
    }
  }

  // the annotation as the server stores it (trimmed texts, keys in order), to compare
  function normalized(status, factors) {
    return JSON.stringify({ status, factors: factors.map((f) => ({
      box: f.box.map(Number), category: f.category || null, name: f.name.trim(), why: (f.why || "").trim() })) });
  }

  async function saved(version, status, note = "") {
    current.version = version;
    current.status = status;
    statuses[current.id] = status;
    pending.delete(current.id);
    setDirty(false);
    clearMessage();
    showMessage(`Saved as ${status} (version ${version})${note}.`, "info");
    $("image-status").textContent = status;
    await refreshProgress();
    document.body.dataset.saved = String(version);
  }

  // The answer to a save was lost (server gone, connection cut): the save may be on disk.
  // Ask the server what it holds rather than guess; the edits stay on screen until then.
  async function afterLostAnswer(id, status, factors, sentVersion) {
    showMessage("The answer to your save was lost: it may have been saved. Reloading what the server holds…", "info");
    let response;
    try {
      response = await api("api/images/" + encodeURIComponent(id));
    } catch (_) {
      response = null;
    }
    if (!response || !response.ok) {
      showMessage("The review server cannot be reached: your save may or may not have been stored. " +
        "Your edits are still here; when the server is back, save again (if it was stored, the page offers to reload it).");
      return false;
    }
    const data = await response.json();
    if (!current || current.id !== id) return false;
    if (data.version > sentVersion && data.annotation &&
        normalized(data.annotation.status, data.annotation.factors) === normalized(status, factors)) {
      await saved(data.version, status, ": the answer was lost, the server has it");
      return true;
    }
    if (data.version > sentVersion) {
      conflict = { status, latest: data.version };
      showMessage("The answer to your save was lost and the server holds another version: reload to see it, or save yours over it.", "conflict");
      return false;
    }
    showMessage("The answer to your save was lost and the server does not have it: nothing saved, your edits are still here.");
    return false;
  }

  async function save(status, version) {
    if (!current || busy) return false;
    const factors = currentFactors();
    const unnamed = factors.findIndex((f) => !f.name.trim());
    if (unnamed >= 0) {
      showMessage(`Box ${unnamed + 1} needs a name before saving.`);
      select(anno.getAnnotations()[unnamed].id);
      return false;
    }
    const uncategorised = factors.findIndex((f) => !CATEGORIES.includes(f.category));
    if (status === "accepted" && uncategorised >= 0) {
      showMessage(`Box ${uncategorised + 1} has no category: choose one before accepting.`);
      select(anno.getAnnotations()[uncategorised].id);
      return false;
    }
    const id = current.id;
    const sentVersion = version ?? current.version;
    const body = JSON.stringify({ version: sentVersion, annotation: { status, factors } });
    let response;
    busy = true;
    try {
      response = await api("api/images/" + encodeURIComponent(id), {
        method: "PUT", headers: { "Content-Type": "application/json" }, body });
    } catch (_) {
      response = null;
    } finally {
      busy = false;
    }
    if (!response) return afterLostAnswer(id, status, factors, sentVersion);
    if (response.status === 409) {
      const detail = await response.json();
      conflict = { status, latest: detail.latest };
      showMessage("Saved elsewhere since: reload to see that version, or save yours over it. Your edits are not saved yet.", "conflict");
      return false;
    }
    if (!response.ok) {
      showMessage("Not saved: " + await detailOf(response));
      return false;
    }
    const answer = await response.json();
    await saved(answer.version, status);
    return true;
  }

  function nextUnreviewed() {
    for (let step = 1; step <= ids.length; step++) {
      const i = (index + step) % ids.length;
      if (statuses[ids[i]] !== "accepted" && statuses[ids[i]] !== "discarded") return show(i);
    }
    showMessage("Nothing left to do: every image is accepted or discarded.", "info");
  }

  // ---- wiring ----

  $("accept").addEventListener("click", () => save("accepted"));
  $("needs_work").addEventListener("click", () => save("needs_work"));
  $("discard").addEventListener("click", () => save("discarded"));
  $("prev").addEventListener("click", () => show(index - 1));
  $("next").addEventListener("click", () => show(index + 1));
  $("next-unreviewed").addEventListener("click", nextUnreviewed);
  $("delete-box").addEventListener("click", deleteSelected);
  $("zoom").addEventListener("click", () => $("canvas").classList.toggle("full"));
  $("reload-image").addEventListener("click", () => {
    if (!current) return;
    pending.delete(current.id);
    setDirty(false);
    clearMessage();
    show(index);
  });
  $("overwrite").addEventListener("click", () => {
    if (conflict) save(conflict.status, conflict.latest);
  });
  $("box-name").addEventListener("input", (e) => editSelected("name", e.target.value));
  $("box-why").addEventListener("input", (e) => editSelected("why", e.target.value));
  $("box-category").addEventListener("change", (e) => editSelected("category", e.target.value));
  $("box-form").addEventListener("submit", (e) => e.preventDefault());

  const KEYS = {
    a: () => save("accepted"), n: () => save("needs_work"), d: () => save("discarded"),
    j: () => show(index + 1), k: () => show(index - 1), u: nextUnreviewed,
    f: () => $("canvas").classList.toggle("full"),
    Delete: deleteSelected, Backspace: deleteSelected,
  };
  document.addEventListener("keydown", (event) => {
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName);
    if (event.key === "Escape") {
      if (typing) event.target.blur();
      else if (anno) { anno.cancelSelected(); selectedId = null; renderForm(); renderBoxes(); }
      return;
    }
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    const action = KEYS[event.key];
    if (action) { event.preventDefault(); action(); }
  });
  window.addEventListener("beforeunload", (event) => {
    if (dirty || pending.size) event.preventDefault();
  });

  async function start() {
    const session = await api("api/session");
    if (!session.ok) { showMessage("The review server refused this page: " + await detailOf(session)); return; }
    const info = await session.json();
    $("annotator").textContent = info.annotator;
    $("dataset").textContent = info.dataset;
    const listed = await api("api/images");
    const images = await listed.json();
    ids = images.map((image) => image.id);
    statuses = Object.fromEntries(images.map((image) => [image.id, image.status]));
    await refreshProgress();
    const wanted = ids.indexOf(params.get("image"));
    await show(wanted >= 0 ? wanted : 0);
  }
  start();
})();
