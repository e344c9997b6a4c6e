// Kivi's counterexample explorer. Everything it shows comes from the JSON
// report embedded in the page (<script id="report">): no network, so the
// file works attached to a CI run or a bug report.
(function () {
  'use strict';

  var DEP_COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#b8a01c', '#b07aa1', '#ff7f9a', '#9c755f', '#5f6b7a'];
  var ACTOR_COLOURS = ['#3f51b5', '#009688', '#ef6c00', '#8d6e63', '#c2185b', '#7cb342', '#5e35b1', '#00838f', '#6d4c41', '#546e7a', '#d81b60', '#fbc02d'];

  function $(id) { return document.getElementById(id); }

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }

  var doc = JSON.parse($('report').textContent);

  // entries are the counterexamples the page can show (one per violated
  // intent of a report; per failing setup of a scaling search); others are
  // the verdicts without a trace, listed for completeness.
  var entries = [];
  var others = [];

  function addReport(rep, setup) {
    (rep.intents || []).forEach(function (it) {
      if (it.trace && it.trace.steps) {
        entries.push({ intent: it, setup: setup, report: rep });
      } else if (!setup) {
        others.push({ label: it.name, verdict: it.verdict, reason: it.reason, checkedSteps: it.checkedSteps });
      }
    });
  }

  if (Array.isArray(doc.setups)) {
    doc.setups.forEach(function (s) {
      var before = entries.length;
      if (s.report) addReport(s.report, s.setup);
      if (entries.length === before) others.push({ label: s.setup, verdict: s.status });
    });
  } else {
    addReport(doc, null);
  }

  // Deployment colours are fixed for the whole document, so that a
  // deployment keeps its colour when switching between failures.
  var depColour = {};
  var depCount = 0;
  function colourOf(dep) {
    var key = dep || '';
    if (!(key in depColour)) depColour[key] = key === '' ? '#777' : DEP_COLOURS[depCount++ % DEP_COLOURS.length];
    return depColour[key];
  }

  // view is the failure being shown; pos the selected step (-1 = the
  // initial cluster).
  var view = null;
  var pos = -1;

  function snapAt(p) {
    if (p < 0) return view.trace.initial;
    return view.trace.steps[p].cluster;
  }

  function renderSidebar() {
    var h = '';
    if (entries.length) {
      h += '<h2>Failures (' + entries.length + ')</h2>';
      entries.forEach(function (e, i) {
        var t = e.intent.trace;
        h += '<button class="entry" data-entry="' + i + '">' +
          (e.setup ? '<span class="sub">' + esc(e.setup) + '</span>' : '') +
          esc(e.intent.name) +
          '<span class="sub">' + t.steps.length + ' steps' + (t.loopStart >= 0 ? ', lasso' : '') + '</span></button>';
      });
    }
    if (others.length) {
      h += '<h2>' + (Array.isArray(doc.setups) ? 'Other setups' : 'Other verdicts') + '</h2><ul>';
      others.forEach(function (o) {
        // An unknown verdict the search still settled for short runs
        // says how short (report.Report.CheckedSteps).
        var within = o.checkedSteps ? '<span class="sub">none within ' + (+o.checkedSteps) + ' steps</span>' : '';
        h += '<li class="other"><span>' + esc(o.label) + within + '</span><span class="badge ' + esc(o.verdict) + '">' +
          esc(o.verdict) + (o.reason ? ' (' + esc(o.reason) + ')' : '') + '</span></li>';
      });
      h += '</ul>';
    }
    $('sidebar').innerHTML = h;
    $('sidebar').addEventListener('click', function (ev) {
      var b = ev.target.closest('button.entry');
      if (b) show(+b.dataset.entry);
    });
  }

  // show switches to failure i: the timeline and charts are built once
  // here, so that a step change only updates what depends on the step.
  function show(i) {
    var e = entries[i];
    view = { entry: e, trace: e.intent.trace, index: i };
    document.querySelectorAll('#sidebar button.entry').forEach(function (b) {
      b.classList.toggle('active', +b.dataset.entry === i);
    });
    var it = e.intent;
    $('intent').innerHTML =
      '<div class="name">Violated intent: ' + esc(it.name) + '</div>' +
      '<div class="expl">' + esc(it.explanation || '') + '</div>' +
      '<div class="meta">' + (e.setup ? 'Setup ' + esc(e.setup) + ' · ' : '') +
      view.trace.steps.length + ' steps' +
      (view.trace.loopStart >= 0 ? ' · a lasso: steps ' + view.trace.loopStart + '–' + (view.trace.steps.length - 1) + ' repeat forever' : '') +
      (it.foundBy ? ' · found by the ' + esc(it.foundBy) + (it.seed ? ' with seed ' + it.seed : '') : '') + '</div>';
    buildTimeline();
    buildCharts();
    view.stepEls = document.querySelectorAll('#timeline .step, #timeline .init');
    view.col = $('step-col');
    view.cursors = document.querySelectorAll('#charts .cursor');
    pos = -2;
    select(-1);
  }

  function buildTimeline() {
    var steps = view.trace.steps;
    var n = steps.length;
    var loop = view.trace.loopStart;
    var lanes = [];
    var laneOf = {};
    steps.forEach(function (s) {
      if (!(s.actor in laneOf)) { laneOf[s.actor] = lanes.length; lanes.push(s.actor); }
    });
    view.actorColour = {};
    lanes.forEach(function (a, k) { view.actorColour[a] = ACTOR_COLOURS[k % ACTOR_COLOURS.length]; });
    var tl = $('timeline');
    // Row 1: step numbers and the cycle band; then one lane per actor.
    tl.style.gridTemplateColumns = 'minmax(70px, max-content) repeat(' + (n + 1) + ', minmax(14px, 1fr))';
    var h = '';
    var rows = lanes.length + 1;
    h += '<div class="lane-label" style="grid-row:1">step</div>';
    // One column highlight behind the selected step, moved by a transform:
    // a step change then costs the grid no layout.
    h += '<div id="step-col" aria-hidden="true"></div>';
    for (var t = 0; t < n; t += Math.max(1, Math.ceil(n / 25))) {
      if (loop >= 0 && t >= loop) break;
      h += '<div class="tick" style="grid-row:1;grid-column:' + (t + 3) + ' / span 2">' + t + '</div>';
    }
    if (loop >= 0) {
      h += '<div class="cycle-band cycle-start" data-step="' + loop + '" title="From here the steps repeat forever" style="grid-row:1;grid-column:' +
        (loop + 3) + ' / ' + (n + 3) + '">⟲ cycle from step ' + loop + '</div>';
    }
    lanes.forEach(function (a, k) {
      h += '<div class="lane-label" style="grid-row:' + (k + 2) + '" title="' + esc(a) + '">' +
        '<span class="sw" style="background:' + view.actorColour[a] + '"></span>' + esc(a) + '</div>';
    });
    h += '<div class="init" data-pos="-1" title="Initial cluster" style="grid-row:2 / span ' + lanes.length + ';grid-column:2"></div>';
    steps.forEach(function (s, i) {
      var tip = 'Step ' + i + ' · ' + s.actor + '\n' + s.lines.map(function (l) { return (l.component ? '[' + l.component + '] ' : '') + l.message; }).join('\n');
      var cls = 'step' + (loop >= 0 && i >= loop ? ' in-cycle' : '') + (i === loop ? ' loop-start' : '');
      h += '<div class="' + cls + '" role="option" data-step="' + i + '" data-pos="' + i + '" data-actor="' + esc(s.actor) + '" title="' + esc(tip) +
        '" style="grid-row:' + (laneOf[s.actor] + 2) + ';grid-column:' + (i + 3) + ';background:' + view.actorColour[s.actor] + '"></div>';
    });
    tl.innerHTML = h;
    tl.style.gridTemplateRows = 'repeat(' + rows + ', 18px)';
    $('actor-legend').innerHTML = '<span class="hint">Lanes are the controllers and events that took each step' +
      (loop >= 0 ? '; the purple underline marks the steps that repeat forever' : '') + '.</span>';
  }

  // chart draws series over the positions -1..n-1 (x = 0..n) as an SVG
  // polyline chart with a cursor at the selected step.
  function chart(title, series, n, loop) {
    var W = 240, H = 80, L = 22, R = 4, T = 6, B = 14;
    var max = 1;
    series.forEach(function (s) { s.values.forEach(function (v) { if (v != null && v > max) max = v; }); });
    var x = function (k) { return L + (n === 0 ? 0 : k * (W - L - R) / n); };
    var y = function (v) { return T + (H - T - B) * (1 - v / max); };
    var h = '<div class="chart"><div class="chart-title">' + esc(title) + '</div><svg width="' + W + '" height="' + H + '" viewBox="0 0 ' + W + ' ' + H + '" role="img" aria-label="' + esc(title) + '">';
    if (loop >= 0) h += '<rect class="cycle-zone" x="' + x(loop) + '" y="' + T + '" width="' + (x(n) - x(loop)) + '" height="' + (H - T - B) + '"></rect>';
    h += '<line x1="' + L + '" y1="' + y(0) + '" x2="' + (W - R) + '" y2="' + y(0) + '" stroke="#ccc"></line>';
    h += '<text x="2" y="' + (y(max) + 3) + '">' + max + '</text><text x="2" y="' + (y(0) + 3) + '">0</text>';
    h += '<text x="' + L + '" y="' + (H - 2) + '">init</text><text x="' + (W - R) + '" y="' + (H - 2) + '" text-anchor="end">step ' + (n - 1) + '</text>';
    series.forEach(function (s) {
      var pts = [];
      s.values.forEach(function (v, k) { if (v != null) pts.push(x(k).toFixed(1) + ',' + y(v).toFixed(1)); });
      h += '<polyline fill="none" stroke="' + s.colour + '" stroke-width="1.5"' + (s.dash ? ' stroke-dasharray="' + s.dash + '"' : '') + ' points="' + pts.join(' ') + '"><title>' + esc(s.name) + '</title></polyline>';
    });
    h += '<line class="cursor" x1="' + x(0) + '" x2="' + x(0) + '" y1="' + T + '" y2="' + (H - B) + '" data-l="' + L + '" data-w="' + (W - L - R) + '" data-n="' + n + '"></line>';
    h += '</svg><div class="legend">' + series.map(function (s) {
      return '<span><span class="sw" style="background:' + s.colour + '"></span>' + esc(s.name) + '</span>';
    }).join('') + '</div></div>';
    return h;
  }

  function buildCharts() {
    var steps = view.trace.steps;
    var n = steps.length;
    var snaps = [view.trace.initial].concat(steps.map(function (s) { return s.cluster; }));
    var names = [];
    snaps.forEach(function (s) {
      (s.deployments || []).forEach(function (d) { if (names.indexOf(d.name) < 0) names.push(d.name); });
    });
    var h = '';
    names.forEach(function (name) {
      var get = function (f) {
        return snaps.map(function (s) {
          var d = (s.deployments || []).find(function (x) { return x.name === name; });
          return d ? f(d) : null;
        });
      };
      var series = [
        { name: 'spec', colour: colourOf(name), values: get(function (d) { return d.spec; }) },
        { name: 'ready', colour: '#222', dash: '3 2', values: get(function (d) { return d.ready; }) }
      ];
      var hpa = get(function (d) { return d.hpaDesired == null ? null : d.hpaDesired; });
      if (hpa.some(function (v) { return v != null; })) series.push({ name: 'HPA desired', colour: '#d32f2f', dash: '1 2', values: hpa });
      h += chart('Replicas of ' + name, series, n, view.trace.loopStart);
    });
    var cpu = names.map(function (name) {
      return {
        name: name, colour: colourOf(name), values: snaps.map(function (s) {
          var d = (s.deployments || []).find(function (x) { return x.name === name; });
          return d ? d.cpu : null;
        })
      };
    });
    if (names.length) h += chart('CPU usage of Running pods, per deployment', cpu, n, view.trace.loopStart);
    $('charts').innerHTML = h;
  }

  function podMap(snap) {
    var m = {};
    if (snap) (snap.pods || []).forEach(function (p) { m[p.name] = p; });
    return m;
  }

  function podHTML(p, prev) {
    var cls = 'pod phase-' + p.phase.toLowerCase();
    var was = prev ? prev[p.name] : undefined;
    if (prev) {
      if (!was) cls += ' added';
      else if ((was.node || '') !== (p.node || '')) cls += ' moved';
      else if (was.phase !== p.phase || was.cpu !== p.cpu || (was.readiness || '') !== (p.readiness || '')) cls += ' changed';
    }
    if (p.evicted) cls += ' evicted';
    if (p.readiness === 'NotReady') cls += ' not-ready';
    else if (p.readiness === 'ReadyNotAvailable') cls += ' not-available';
    var tip = p.name + ' (pod ' + p.slot + ' in trace lines)\n' + p.phase +
      (p.readiness === 'NotReady' ? ', not Ready' : p.readiness === 'ReadyNotAvailable' ? ', Ready, not yet available' : '') + (p.node ? ' on node ' + p.node : ', not scheduled') +
      (p.nominatedNode ? '\nnominated to node ' + p.nominatedNode : '') +
      '\nCPU ' + p.cpu + ' used / ' + p.cpuRequest + ' requested' + (p.evicted ? '\nevicted' : '');
    return '<div class="' + cls + '" data-pod="' + esc(p.name) + '" title="' + esc(tip) + '" style="--c:' + colourOf(p.deployment) + '">' + esc(p.name) + '</div>';
  }

  function ghostHTML(p) {
    return '<div class="pod ghost" data-ghost="' + esc(p.name) + '" title="' + esc(p.name + ' is gone') + '">' + esc(p.name) + '</div>';
  }

  function renderCluster(snap, prevSnap) {
    var prev = prevSnap ? podMap(prevSnap) : null;
    var cur = podMap(snap);
    var prevNodes = {};
    if (prevSnap) prevSnap.nodes.forEach(function (n) { prevNodes[n.name] = n; });
    var byNode = {};
    var pending = [];
    snap.pods.forEach(function (p) {
      if (p.node) (byNode[p.node] = byNode[p.node] || []).push(p); else pending.push(p);
    });
    // Pods gone since the previous step stay visible as ghosts where they were.
    var ghostsByNode = {};
    var pendingGhosts = [];
    if (prevSnap) prevSnap.pods.forEach(function (p) {
      if (cur[p.name]) return;
      if (p.node) (ghostsByNode[p.node] = ghostsByNode[p.node] || []).push(p); else pendingGhosts.push(p);
    });
    var zones = [];
    var zoneNodes = {};
    snap.nodes.forEach(function (n) {
      var z = n.zone || '';
      if (!(z in zoneNodes)) { zoneNodes[z] = []; zones.push(z); }
      zoneNodes[z].push(n);
    });
    var h = '<div class="lane pending-lane" id="pending-lane"><div class="lane-name">Pending, not scheduled</div><div class="pods">';
    pending.forEach(function (p) { h += podHTML(p, prev); });
    pendingGhosts.forEach(function (p) { h += ghostHTML(p); });
    if (!pending.length && !pendingGhosts.length) h += '<span class="empty">none</span>';
    h += '</div></div>';
    zones.forEach(function (z) {
      h += '<div class="zone" data-zone="' + esc(z) + '"><div class="zone-name">' + (z ? 'zone ' + esc(z) : 'no zone label') + '</div><div class="nodes">';
      zoneNodes[z].forEach(function (n) {
        var pn = prevNodes[n.name];
        var changed = pn && (pn.status !== n.status || (pn.taints || []).join() !== (n.taints || []).join());
        var pct = n.cpu > 0 ? Math.min(100, Math.round(100 * n.requestedCpu / n.cpu)) : 0;
        h += '<div class="node' + (n.ready ? '' : ' notready') + (changed ? ' changed' : '') + '" data-node="' + esc(n.name) + '">' +
          '<div class="node-head"><span>node ' + esc(n.name) + '</span><span class="status">' + esc(n.status) + '</span>' +
          (n.taints || []).map(function (t) { return '<span class="taint" title="taint">' + esc(t) + '</span>'; }).join('') + '</div>' +
          '<div class="cpubar" title="CPU requested ' + n.requestedCpu + ' of ' + n.cpu + '"><div style="width:' + pct + '%"></div></div>' +
          '<div class="cpu-text">CPU req ' + n.requestedCpu + '/' + n.cpu + ' · used ' + n.usedCpu + '</div><div class="pods">';
        (byNode[n.name] || []).forEach(function (p) { h += podHTML(p, prev); });
        (ghostsByNode[n.name] || []).forEach(function (p) { h += ghostHTML(p); });
        h += '</div></div>';
      });
      h += '</div></div>';
    });
    $('cluster').innerHTML = h;
  }

  function renderDeployments(snap, prevSnap) {
    var prev = {};
    if (prevSnap) prevSnap.deployments.forEach(function (d) { prev[d.name] = d; });
    var cols = [['spec', 'spec'], ['ready', 'ready'], ['pending', 'pending'], ['terminating', 'term.'], ['hpaDesired', 'HPA desired'], ['cpu', 'CPU used']];
    var h = '<tr><th>deployment</th>' + cols.map(function (c) { return '<th>' + c[1] + '</th>'; }).join('') + '</tr>';
    snap.deployments.forEach(function (d) {
      var p = prev[d.name];
      h += '<tr><td><span class="sw" style="display:inline-block;width:10px;height:10px;border-radius:2px;background:' + colourOf(d.name) + '"></span> ' +
        esc(d.name) + ' <span class="hint">(deployment ' + d.number + (d.active ? '' : ', inactive') + ')</span></td>';
      cols.forEach(function (c) {
        var v = d[c[0]];
        var ch = p && p[c[0]] !== v;
        h += '<td' + (ch ? ' class="changed"' : '') + '>' + (v == null ? '–' : esc(v)) + '</td>';
      });
      h += '</tr>';
    });
    $('deployments').innerHTML = h;
  }

  function renderStep() {
    var steps = view.trace.steps;
    var loop = view.trace.loopStart;
    var h = '';
    if (pos < 0) {
      $('step-title').textContent = 'Initial cluster (before step 0 of ' + steps.length + ')';
      h = '<li class="empty">The cluster as the counterexample starts. Press → to take the first step.</li>';
    } else {
      var s = steps[pos];
      $('step-title').textContent = 'Step ' + pos + ' of ' + steps.length + ' · ' + s.actor;
      if (pos === loop) h += '<li class="marker">⟲ the cycle starts here</li>';
      s.lines.forEach(function (l) {
        h += '<li>[' + l.step + ']' + (l.component ? '<span class="comp">[' + esc(l.component) + ']</span> ' : ' ') + esc(l.message) + '</li>';
      });
      if (loop >= 0 && pos === steps.length - 1) h += '<li class="marker">⟲ back to the state before step ' + loop + ': the cycle repeats</li>';
    }
    $('step-lines').innerHTML = h;
  }

  // select shows position p (-1: the initial cluster). Only the parts that
  // depend on the step are redrawn; the timeline and charts just move
  // their selection.
  function select(p) {
    if (!view) return;
    var n = view.trace.steps.length;
    p = Math.max(-1, Math.min(n - 1, p));
    if (p === pos) return;
    var old = pos;
    pos = p;
    if (old >= -1) {
      view.stepEls[old + 1].classList.remove('selected');
      view.stepEls[old + 1].removeAttribute('aria-selected');
    }
    var el = view.stepEls[pos + 1];
    el.classList.add('selected');
    el.setAttribute('aria-selected', 'true');
    // The timeline's geometry is read before the panes below are redrawn,
    // while the layout is still clean (reading it later would force a
    // second layout of the whole page).
    var tl = $('timeline');
    var x = el.offsetLeft;
    view.col.style.width = el.offsetWidth + 'px';
    view.col.style.transform = 'translateX(' + x + 'px)';
    if (x < tl.scrollLeft + 80 || x > tl.scrollLeft + tl.clientWidth - 20) tl.scrollLeft = Math.max(0, x - tl.clientWidth / 2);
    view.cursors.forEach(function (c) {
      var x = +c.dataset.l + (+c.dataset.n === 0 ? 0 : (pos + 1) * +c.dataset.w / +c.dataset.n);
      c.setAttribute('x1', x);
      c.setAttribute('x2', x);
    });
    var snap = snapAt(pos);
    var prevSnap = pos < 0 ? null : snapAt(pos - 1);
    renderStep();
    renderCluster(snap, prevSnap);
    renderDeployments(snap, prevSnap);
    document.body.dataset.pos = String(pos);
  }

  document.addEventListener('keydown', function (ev) {
    if (!view || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var n = view.trace.steps.length;
    var to = null;
    switch (ev.key) {
      case 'ArrowRight': to = pos + 1; break;
      case 'ArrowLeft': to = pos - 1; break;
      case 'Home': to = -1; break;
      case 'End': to = n - 1; break;
      default: return;
    }
    ev.preventDefault();
    select(to);
  });

  $('timeline').addEventListener('click', function (ev) {
    var t = ev.target.closest('[data-pos]');
    if (t) select(+t.dataset.pos);
  });

  $('doc-name').textContent = doc.name ? '— ' + doc.name : '';
  var verdict = doc.verdict || 'unknown'; // every document has one since schema version 2
  $('doc-verdict').textContent = verdict;
  $('doc-verdict').className = 'badge ' + verdict;
  renderSidebar();
  if (entries.length) {
    // "#failure=K&step=N" opens failure K (from 0) at step N: a link or a
    // headless screenshot can point at the interesting step.
    var want = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
      var m = /^(failure|step)=(-?\d+)$/.exec(kv);
      if (m) want[m[1]] = +m[2];
    });
    show(want.failure >= 0 && want.failure < entries.length ? want.failure : 0);
    if ('step' in want) select(want.step);
  } else {
    $('intent').innerHTML = '<div class="name">No counterexample in this report</div><div class="expl">' +
      (verdict === 'holds' ? 'Every intent holds.' : 'No intent was found violated; see the verdicts on the left.') + '</div>';
    $('timeline-box').style.display = 'none';
    $('panes').style.display = 'none';
  }
}());
