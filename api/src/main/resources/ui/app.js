// Squall's dashboard: plain JavaScript over the JSON API (/v1), with the token its user pastes.
// Every figure it shows is the API's, and so is every refusal: the API decides what a token may
// see and do. Tables are Tabulator's, charts ECharts', both served by the service itself.
'use strict';

(function () {
  var POLL_MS = 2000;
  var TOKEN_KEY = 'squall.token';
  var OUTPUT_KEPT = 64 * 1024;

  // squeue's REASON codes, said in words (Slurm's job_reason_string meanings).
  var REASONS = {
    Priority: 'waiting for jobs of higher priority to start first',
    Resources: 'waiting for nodes with free GPUs (or for nodes to be launched)',
    Dependency: 'waiting for the jobs it depends on',
    DependencyNeverSatisfied: 'its dependency can never be met: it will not start unless it is changed',
    BeginTime: 'waiting for its --begin time',
    JobHeldUser: 'held by its user (release it to let it start)',
    JobHeldAdmin: 'held by an operator',
    JobArrayTaskLimit: 'its array already runs as many tasks as its %limit allows',
    PartitionTimeLimit: 'its time limit is longer than the partition allows',
    PartitionNodeLimit: 'it asks for more nodes than the partition allows',
    PartitionConfig: 'no partition it may use can run it as asked',
    InvalidAccount: 'its account is not valid',
    InvalidQOS: 'its QOS is not valid',
    AssocGrpBillingMinutes: "its account's budget is spent, or its worst-case cost does not fit what is left",
    AssocMaxJobsLimit: 'its account runs as many jobs as it may',
    ReqNodeNotAvail: 'the nodes it needs are not available',
    Reservation: 'waiting for its reservation to begin',
    ReservationDeleted: 'its reservation was deleted or ended (it is held)',
    'ReqNodeNotAvail, Reserved for maintenance': 'its nodes are reserved for maintenance',
    DeadLine: 'it can no longer end before its deadline',
    None: ''
  };
  var LIMITS = { GRES: 'GPUs', Cpu: 'CPUs', CPU: 'CPUs', Mem: 'memory', Memory: 'memory', Node: 'nodes',
    GRESMinutes: 'GPU-minutes', JobsPerUser: 'jobs per user' };
  var NODE_STATES = ['CLOUD', 'POWERING_UP', 'IDLE', 'MIXED', 'ALLOCATED', 'DRAINING', 'DOWN', 'POWERING_DOWN'];
  var FINISHED = ['COMPLETED', 'FAILED', 'CANCELLED', 'TIMEOUT', 'NODE_FAIL', 'PREEMPTED'];

  var me = null;
  var timer = null;
  var refreshing = false;
  var tables = {};
  var charts = {};
  var output = { job: null, offset: 0, text: '', decoder: null };

  function $(selector) { return document.querySelector(selector); }

  function el(tag, attributes, children) {
    var e = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (k) {
      if (k === 'text') { e.textContent = attributes[k]; } else { e.setAttribute(k, attributes[k]); }
    });
    (children || []).forEach(function (c) { e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return e;
  }

  function stateBadge(state) {
    return el('span', { 'class': 'state s-' + state, text: state });
  }

  function reasonInWords(code) {
    if (code === null || code === undefined) { return ''; }
    if (Object.prototype.hasOwnProperty.call(REASONS, code)) { return REASONS[code]; }
    var m = /^(QOS|Assoc)(Grp|Max)(.*?)(Limit|PerUser)?$/.exec(code);
    if (m) {
      var what = LIMITS[m[3].replace(/PerUser$/, '')] || m[3];
      return (m[1] === 'QOS' ? "its QOS's " : "its account's ") + (m[2] === 'Grp' ? 'group' : 'per-user')
        + ' limit on ' + what + ' is reached';
    }
    return code;
  }

  function time(iso) {
    return iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '';
  }

  function duration(seconds) {
    if (seconds === null || seconds === undefined) { return ''; }
    var s = Math.floor(seconds);
    var d = Math.floor(s / 86400);
    var hms = [Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60, s % 60]
      .map(function (n) { return (n < 10 ? '0' : '') + n; }).join(':');
    return d > 0 ? d + '-' + hms : hms;
  }

  function usd(n) {
    return n === null || n === undefined ? 'unknown' : '$' + Number(n).toFixed(2);
  }

  // --- the API ---------------------------------------------------------------------------------

  function ApiError(status, message) {
    this.status = status;
    this.message = message;
  }

  // how: what to make of a good answer; accept: what the endpoint produces (JSON unless said).
  function call(method, path, how, accept) {
    return fetch(path, {
      method: method,
      headers: { Authorization: 'Bearer ' + sessionStorage.getItem(TOKEN_KEY), Accept: accept || 'application/json' },
      cache: 'no-store'
    }).then(function (r) {
      if (r.status === 401) {
        signOut('The service refused the token (401): sign in again.');
      }
      if (!r.ok) {
        return r.text().then(function (text) {
          var message = text;
          try { message = JSON.parse(text).error || text; } catch (notJson) { /* plain text */ }
          throw new ApiError(r.status, r.status + ': ' + message);
        });
      }
      return how(r);
    });
  }

  function get(path) { return call('GET', path, function (r) { return r.json(); }); }

  function query(params) {
    var parts = [];
    Object.keys(params).forEach(function (k) {
      if (params[k] !== '' && params[k] !== null && params[k] !== undefined) {
        parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(params[k]));
      }
    });
    return parts.length ? '?' + parts.join('&') : '';
  }

  // --- tables and charts, made once per element ------------------------------------------------

  function table(id, columns, index) {
    if (!tables[id]) {
      tables[id] = new Tabulator('#' + id, {
        layout: 'fitDataStretch', index: index, columns: columns, data: [],
        placeholder: 'nothing to show', renderVertical: 'basic'
      });
      tables[id].built = new Promise(function (resolve) { tables[id].on('tableBuilt', resolve); });
    }
    return tables[id];
  }

  function fill(id, columns, index, rows) {
    var t = table(id, columns, index);
    return t.built.then(function () { return t.replaceData(rows); }).then(function () {
      document.getElementById(id).dataset.rows = String(rows.length);
    });
  }

  function link(prefix) {
    return function (cell) {
      var v = cell.getValue();
      return v === null || v === undefined ? '' : el('a', { href: '#' + prefix + '/' + encodeURIComponent(v), text: v });
    };
  }

  function chart(element) {
    var c = echarts.getInstanceByDom(element);
    return c || echarts.init(element);
  }

  window.addEventListener('resize', function () {
    document.querySelectorAll('.chart').forEach(function (e) {
      var c = echarts.getInstanceByDom(e);
      if (c) { c.resize(); }
    });
  });

  // --- views -----------------------------------------------------------------------------------

  var JOB_COLUMNS = [
    { title: 'JOBID', field: 'job_id', formatter: link('job') },
    { title: 'PARTITION', field: 'partition' },
    { title: 'NAME', field: 'name' },
    { title: 'USER', field: 'user' },
    { title: 'ACCOUNT', field: 'account' },
    { title: 'STATE', field: 'state', formatter: function (c) { return stateBadge(c.getValue()); } },
    { title: 'TIME', field: 'elapsed_seconds', formatter: function (c) { return duration(c.getValue()); } },
    { title: 'NODES', field: 'num_nodes' },
    { title: 'NODELIST(REASON)', field: 'where' },
    { title: 'WHY IT WAITS', field: 'why' }
  ];

  function queue() {
    var form = $('#queue-filters');
    var filters = {};
    ['user', 'account', 'partition', 'state'].forEach(function (k) { filters[k] = form.elements[k].value.trim(); });
    return get('/v1/jobs' + query(filters)).then(function (body) {
      var rows = body.jobs.map(function (j) {
        var pending = j.state === 'PENDING';
        return Object.assign({}, j, {
          where: pending ? '(' + (j.reason || 'None') + ')' : j.nodes || '',
          why: pending ? reasonInWords(j.reason || 'None') : ''
        });
      });
      return fill('queue-table', JOB_COLUMNS, 'job_id', rows);
    });
  }

  function job(id) {
    if (output.job !== id) {
      output = { job: id, offset: 0, text: '', decoder: new TextDecoder() };
      $('#job-output').textContent = '';
    }
    var path = '/v1/jobs/' + encodeURIComponent(id);
    return get(path).then(function (j) {
      $('#job-title').textContent = 'Job ' + j.job_id + (j.name ? ' (' + j.name + ')' : '');
      $('#view-job').dataset.state = j.state;
      summary($('#job-summary'), [
        ['state', stateBadge(j.state)],
        ['why it waits', j.state === 'PENDING' ? reasonInWords(j.reason || 'None') + ' (' + (j.reason || 'None') + ')' : ''],
        ['user / account', j.user + ' / ' + j.account],
        ['partition', j.partition], ['nodes', j.nodes || ''], ['GPUs', j.num_gpus === null ? '' : String(j.num_gpus)],
        ['submitted', time(j.submit_time)], ['started', time(j.start_time)], ['ended', time(j.end_time)],
        ['run time', duration(j.elapsed_seconds)], ['restarts', String(j.restart_count)],
        ['exit code', j.exit_code === null ? '' : String(j.exit_code)]
      ]);
      timeline(j.events);
      actions(j);
      var allocation = j.allocation.map(function (a) {
        return { node: a.node, gpus: a.gpus.join(','), cpus: a.cpus, memory_mb: a.memory_mb };
      });
      return Promise.all([
        fill('job-allocation', [{ title: 'node', field: 'node' }, { title: 'GPU indices', field: 'gpus' },
          { title: 'CPUs', field: 'cpus' }, { title: 'memory (MB)', field: 'memory_mb' }], 'node', allocation),
        get(path + '/checkpoints').then(function (c) {
          $('#job-restore').textContent = c.restore_from ? 'restore_from: ' + c.restore_from : 'no checkpoint to restore from';
          return fill('job-checkpoints', [{ title: 'step', field: 'step' }, { title: 'path', field: 'path' },
            { title: 'node', field: 'node' }, { title: 'registered', field: 'registered', formatter: timeCell }],
          'path', c.checkpoints);
        }),
        get('/v1/interruptions' + query({ job: j.job_id })).then(function (i) {
          return fill('job-interruptions', INTERRUPTION_COLUMNS.filter(function (c) { return c.field !== 'job'; }),
            'noticed_at', i.interruptions);
        }),
        get('/v1/accounting' + query({ job: j.job_id, start: '1970-01-01' })).then(function (a) {
          var row = a.jobs.filter(function (r) { return String(r.job_id) === String(j.job_id); })[0];
          summary($('#job-cost'), row ? [['cost', usd(row.cost_usd)], ['on demand it would be', usd(row.on_demand_usd)],
            ['work lost to interruptions', usd(row.lost_usd) + ' (' + row.lost_gpu_hours + ' GPU-hours)']]
            : [['cost', 'nothing yet: it has not run']]);
        }),
        tail(path)
      ]);
    });
  }

  function timeCell(c) { return time(c.getValue()); }

  function summary(dl, pairs) {
    dl.textContent = '';
    pairs.forEach(function (p) {
      if (p[1] === '' || p[1] === null || p[1] === undefined) { return; }
      dl.appendChild(el('dt', { text: p[0] }));
      dl.appendChild(el('dd', {}, [p[1]]));
    });
  }

  function timeline(events) {
    var ol = $('#job-timeline');
    ol.textContent = '';
    events.forEach(function (e) {
      ol.appendChild(el('li', { 'data-state': e.state }, [stateBadge(e.state), el('time', { text: time(e.time) }),
        el('span', { 'class': 'reason', text: e.reason || '' })]));
    });
  }

  // Buttons for what makes sense in the job's state; the API still decides who may.
  function actions(j) {
    var finished = FINISHED.indexOf(j.state) >= 0;
    var allowed = {
      cancel: !finished, hold: j.state === 'PENDING' && !j.held, release: !!j.held,
      requeue: j.state === 'RUNNING' || finished, pause: j.state === 'RUNNING'
    };
    document.querySelectorAll('#job-actions button').forEach(function (b) {
      b.disabled = !allowed[b.dataset.action];
      b.dataset.job = j.job_id;
    });
  }

  $('#job-actions').addEventListener('click', function (event) {
    var b = event.target.closest('button');
    if (!b) { return; }
    var id = encodeURIComponent(b.dataset.job);
    var verb = b.dataset.action;
    var result = $('#job-action-result');
    result.textContent = verb + '…';
    var done = verb === 'cancel' ? call('DELETE', '/v1/jobs/' + id, Object)
      : call('POST', '/v1/jobs/' + id + '/' + verb, Object);
    done.then(function () { result.textContent = verb + ': done'; refresh(); },
      function (e) { result.textContent = verb + ': ' + e.message; });
  });

  // The output from where the last read ended: a live tail that fetches only what is new.
  function tail(path) {
    var id = output.job;
    return call('GET', path + '/output' + query({ offset: output.offset }), function (r) { return r.arrayBuffer(); },
      'text/plain')
      .then(function (bytes) {
        if (output.job !== id || bytes.byteLength === 0) { return; }
        output.offset += bytes.byteLength;
        output.text = (output.text + output.decoder.decode(bytes, { stream: true })).slice(-OUTPUT_KEPT);
        var pre = $('#job-output');
        var atBottom = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4;
        pre.textContent = output.text;
        if (atBottom) { pre.scrollTop = pre.scrollHeight; }
      });
  }

  function fleet() {
    return Promise.all([get('/v1/partitions'), get('/v1/nodes'), get('/v1/instances'), get('/v1/launches')])
      .then(function (all) {
        var instances = {};
        all[2].instances.forEach(function (i) { instances[i.node] = i; });
        var byName = {};
        all[1].nodes.forEach(function (n) { byName[n.name] = n; });
        var box = $('#fleet-partitions');
        box.textContent = '';
        all[0].partitions.forEach(function (p) {
          var members = all[1].nodes.filter(function (n) { return n.partitions.indexOf(p.name) >= 0; });
          var counts = Object.keys(p.nodes_by_state).map(function (s) { return p.nodes_by_state[s] + ' ' + s; });
          var section = el('div', { 'class': 'partition', 'data-partition': p.name },
            [el('h3', { text: p.name + ' (' + p.total_gpus + ' GPUs: ' + counts.join(', ') + ')' })]);
          var groups = {};
          members.forEach(function (n) { (groups[n.placement_group || 'no placement group'] = groups[n.placement_group || 'no placement group'] || []).push(n); });
          Object.keys(groups).sort().forEach(function (g) {
            section.appendChild(el('div', { 'class': 'group-name', text: g }));
            section.appendChild(el('div', { 'class': 'group' }, groups[g].map(function (n) {
              return nodeTile(n, instances[n.name]);
            })));
          });
          box.appendChild(section);
        });
        return Promise.all([
          fill('fleet-launches', [{ title: 'created', field: 'created', formatter: timeCell },
            { title: 'partition', field: 'partition' }, { title: 'nodes', field: 'nodes' },
            { title: 'offering', field: 'offering' }, { title: 'placement group', field: 'placement_group' },
            { title: 'outcome', field: 'state' }, { title: 'detail', field: 'detail' }], 'token',
          all[3].launches.slice().reverse()),
          fill('fleet-instances', [{ title: 'node', field: 'node' }, { title: 'instance', field: 'instance_id' },
            { title: 'type', field: 'instance_type' }, { title: 'zone', field: 'zone' },
            { title: 'capacity', field: 'capacity_type' }, { title: '$/hour', field: 'price_per_hour' }],
          'instance_id', all[2].instances)
        ]);
      });
  }

  function nodeTile(n, instance) {
    var lines = [el('b', { text: n.name }), el('small', { 'class': 'node-state', text: n.state }),
      el('small', { text: n.gpus_allocated + ' / ' + n.gpus + ' ' + (n.gpu_type || '') + ' GPUs allocated' })];
    if (instance) {
      lines.push(el('small', { text: instance.capacity_type + ' ' + instance.instance_type + ' in ' + instance.zone }));
      lines.push(el('small', { text: usd(instance.price_per_hour) + ' an hour' }));
    }
    if (n.jobs.length) { lines.push(el('small', { text: 'jobs ' + n.jobs.join(', ') })); }
    if (n.reason) { lines.push(el('small', { text: n.reason })); }
    return el('div', { 'class': 'node s-' + n.state, 'data-node': n.name, 'data-state': n.state, title: n.state }, lines);
  }

  // A budget's spend since its period began, with what is left of it (the burn-down), to the period's end.
  function money() {
    return get('/v1/reports/spend').then(function (body) {
      var box = $('#money-burndown');
      var seen = {};
      $('#money-none').hidden = body.accounts.length > 0;
      body.accounts.forEach(function (a) {
        seen[a.account] = true;
        var figure = Array.prototype.filter.call(box.children, function (f) { return f.dataset.account === a.account; })[0];
        if (!figure) {
          figure = el('figure', { 'data-account': a.account }, [el('div', { 'class': 'chart', 'data-chart': 'burndown' }),
            el('figcaption')]);
          box.appendChild(figure);
        }
        var limit = a.hard_limit_usd !== null ? a.hard_limit_usd : a.soft_limit_usd;
        figure.querySelector('figcaption').textContent = a.account + ': ' + usd(a.points[a.points.length - 1].usd)
          + ' spent this ' + a.period + (limit === null ? ' (no budget)' : ' of ' + usd(limit));
        var spent = a.points.map(function (p) { return [p.time, p.usd]; });
        var series = [{ name: 'spent', type: 'line', showSymbol: false, data: spent,
          markLine: { symbol: 'none', data: budgetLines(a) } }];
        if (limit !== null) {
          series.push({ name: 'left of the budget', type: 'line', showSymbol: false,
            data: a.points.map(function (p) { return [p.time, Math.max(0, limit - p.usd)]; }) });
        }
        chart(figure.querySelector('.chart')).setOption({
          animation: false, title: { text: a.account, textStyle: { fontSize: 13 } },
          legend: { top: 0, right: 0 }, tooltip: { trigger: 'axis' },
          xAxis: { type: 'time', min: a.period_start, max: a.period_end },
          yAxis: { type: 'value', name: 'USD' }, series: series
        }, true);
      });
      Array.prototype.slice.call(box.children).forEach(function (f) {
        if (!seen[f.dataset.account]) { echarts.dispose(f.querySelector('.chart')); f.remove(); }
      });
      var m = body.month;
      chart($('#money-capacity')).setOption({
        animation: false, title: { text: 'Cost by capacity type', textStyle: { fontSize: 13 } }, tooltip: {},
        series: [{ type: 'pie', radius: '60%', data: Object.keys(m.by_capacity_type).map(function (k) {
          return { name: k, value: m.by_capacity_type[k] };
        }) }]
      }, true);
      summary($('#money-figures'), [['since', time(m.since)], ['cost', usd(m.cost_usd)],
        ['the same on demand', usd(m.on_demand_usd)], ['saved by spot', usd(m.savings_usd)]]);
    });
  }

  function budgetLines(a) {
    var lines = [];
    if (a.soft_limit_usd !== null) { lines.push({ yAxis: a.soft_limit_usd, name: 'soft budget', label: { formatter: 'soft' } }); }
    if (a.hard_limit_usd !== null) { lines.push({ yAxis: a.hard_limit_usd, name: 'hard budget', label: { formatter: 'hard' } }); }
    return lines;
  }

  function utilisation() {
    return get('/v1/utilisation').then(function (body) {
      var kinds = [['allocated', 'allocated'], ['idle', 'idle'], ['powered_down', 'powered down'], ['down', 'down']];
      chart($('#utilisation-chart')).setOption({
        animation: false, legend: { top: 0 }, tooltip: { trigger: 'axis' },
        xAxis: { type: 'time' }, yAxis: { type: 'value', name: 'GPUs', minInterval: 1 },
        series: kinds.map(function (k) {
          return { name: k[1], type: 'line', stack: 'gpus', areaStyle: {}, showSymbol: false,
            data: body.samples.map(function (s) { return [s.time, s[k[0]]]; }) };
        })
      }, true);
    });
  }

  var INTERRUPTION_COLUMNS = [
    { title: 'noticed', field: 'noticed_at', formatter: timeCell },
    { title: 'node', field: 'node' }, { title: 'instance', field: 'instance_id' },
    { title: 'source', field: 'source' }, { title: 'kind', field: 'kind' },
    { title: 'job', field: 'job', formatter: link('job') }, { title: 'outcome', field: 'outcome' },
    { title: 'lost GPU-hours', field: 'lost_gpu_hours' }, { title: 'handled', field: 'handled_at', formatter: timeCell }
  ];

  function interruptions() {
    return get('/v1/interruptions?limit=200').then(function (body) {
      return fill('interruptions-table', INTERRUPTION_COLUMNS, 'noticed_at', body.interruptions.slice().reverse());
    });
  }

  var VIEWS = { queue: queue, job: job, fleet: fleet, money: money, utilisation: utilisation, interruptions: interruptions };

  function route() {
    var parts = location.hash.replace(/^#/, '').split('/');
    var name = VIEWS[parts[0]] ? parts[0] : 'queue';
    return { name: name, argument: parts.length > 1 ? decodeURIComponent(parts.slice(1).join('/')) : null };
  }

  // --- the loop: the current view, every POLL_MS, never two at once ------------------------------

  function refresh() {
    if (!sessionStorage.getItem(TOKEN_KEY) || refreshing) { return; }
    clearTimeout(timer);
    refreshing = true;
    var r = route();
    var section = $('#view-' + r.name);
    document.querySelectorAll('.view').forEach(function (v) { v.hidden = v !== section; });
    document.querySelectorAll('#nav a').forEach(function (a) {
      a.classList.toggle('current', a.dataset.view === r.name || (r.name === 'job' && a.dataset.view === 'queue'));
    });
    var error = section.querySelector('.error');
    Promise.resolve().then(function () { return VIEWS[r.name](r.argument); }).then(function () {
      error.textContent = '';
      $('#status').textContent = 'updated ' + new Date().toLocaleTimeString();
    }, function (e) {
      error.textContent = e instanceof ApiError ? 'The service answered ' + e.message : String(e && e.stack || e);
      $('#status').textContent = 'not updated: ' + (e && e.message || e);
    }).then(function () {
      refreshing = false;
      document.body.dataset.refreshes = String(Number(document.body.dataset.refreshes || 0) + 1);
      timer = setTimeout(refresh, POLL_MS);
    });
  }

  window.addEventListener('hashchange', function () { refreshing = false; refresh(); });
  $('#queue-filters').addEventListener('input', function () { refreshing = false; refresh(); });
  $('#queue-filters').addEventListener('submit', function (e) { e.preventDefault(); });

  // --- signing in ------------------------------------------------------------------------------

  function signOut(message) {
    sessionStorage.removeItem(TOKEN_KEY);
    clearTimeout(timer);
    me = null;
    $('#views').hidden = true;
    $('#nav').hidden = true;
    $('#sign-out').hidden = true;
    $('#who').textContent = '';
    $('#sign-in').hidden = false;
    $('#sign-in-error').textContent = message || '';
  }

  function signIn() {
    return get('/v1/whoami').then(function (who) {
      me = who;
      $('#who').textContent = who.user + (who.operator ? ' (operator: every job)' : ' (account ' + who.account + ': your jobs)');
      document.body.dataset.user = who.user;
      $('#sign-in').hidden = true;
      $('#views').hidden = false;
      $('#nav').hidden = false;
      $('#sign-out').hidden = false;
      refresh();
    }, function (e) {
      signOut(e instanceof ApiError ? 'The service answered ' + e.message : String(e));
    });
  }

  $('#sign-in').addEventListener('submit', function (event) {
    event.preventDefault();
    var token = $('#token').value.trim();
    if (!token) { return; }
    sessionStorage.setItem(TOKEN_KEY, token);
    $('#token').value = '';
    signIn();
  });
  $('#sign-out').addEventListener('click', function () { signOut(); });

  if (sessionStorage.getItem(TOKEN_KEY)) { signIn(); } else { signOut(); }
})();
