// The what-if report's charts, drawn with ECharts (inlined before this script) from the JSON in
// #what-if-data (WhatIfCharts.Page). Names come from users: they reach the page only through
// textContent and ECharts (canvas, and tooltips that ECharts escapes), never as HTML.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('what-if-data').textContent);
  var SPOT = '#3ba272';
  var ON_DEMAND = '#fc8452';
  var BUDGET = {soft: {color: '#e6a23c', type: 'dashed'}, hard: {color: '#d9342b', type: 'solid'}};
  var charts = [];

  function hoursAxis() {
    return {type: 'value', name: 'hours', nameLocation: 'middle', nameGap: 26, min: 0};
  }

  function base(yAxis) {
    // No animation: a report is read, not watched, and a screenshot taken once drawn is complete.
    return {
      animation: false,
      grid: {left: 64, right: 24, top: 48, bottom: 48},
      legend: {top: 0, type: 'scroll'},
      tooltip: {trigger: 'axis', confine: true},
      xAxis: hoursAxis(),
      yAxis: yAxis
    };
  }

  /** The next multiple of half a power of ten: 945 to 1000, 630 to 650; an axis end that reads well. */
  function roundUp(x) {
    var step = Math.pow(10, Math.floor(Math.log10(x))) / 2;
    return Math.ceil(x / step) * step;
  }

  function line(name, points, extra) {
    var s = {name: name, type: 'line', showSymbol: false, data: points};
    Object.keys(extra || {}).forEach(function (k) { s[k] = extra[k]; });
    return s;
  }

  function figure(section, caption, kind) {
    var fig = document.createElement('figure');
    var cap = document.createElement('figcaption');
    cap.textContent = caption;
    var el = document.createElement('div');
    el.className = 'chart';
    el.dataset.chart = kind;
    fig.appendChild(cap);
    fig.appendChild(el);
    document.getElementById(section).appendChild(fig);
    return el;
  }

  var specs = [];

  data.cost.forEach(function (account) {
    var top = 0;
    var series = account.lines.map(function (l) {
      var extra = {};
      if (l.budgets.length > 0) {
        extra.markLine = {
          silent: true,
          symbol: 'none',
          data: l.budgets.map(function (b) {
            top = Math.max(top, b.usd);
            return {
              name: b.label,
              yAxis: b.usd,
              lineStyle: {color: BUDGET[b.kind].color, type: BUDGET[b.kind].type, width: 2},
              label: {position: 'insideEndTop', formatter: '{b}: ${c}'}
            };
          })
        };
      }
      return line(l.configuration, l.points, extra);
    });
    // Budget lines do not stretch the axis by themselves: keep every limit in view.
    var yAxis = {type: 'value', name: 'USD spent',
      max: function (v) { return top > v.max ? roundUp(top * 1.05) : null; }};
    specs.push({el: figure('cost', 'Cost: ' + account.account, 'cost'),
      option: Object.assign(base(yAxis), {series: series})});
  });

  specs.push({
    el: figure('load', 'Queue length (pending jobs)', 'queued'),
    option: Object.assign(base({type: 'value', name: 'jobs', minInterval: 1}),
      {series: data.queued.map(function (l) { return line(l.configuration, l.points, {step: 'end'}); })})
  });
  specs.push({
    el: figure('load', 'Running GPUs', 'running-gpus'),
    option: Object.assign(base({type: 'value', name: 'GPUs', minInterval: 1}),
      {series: data.runningGpus.map(function (l) { return line(l.configuration, l.points, {step: 'end'}); })})
  });

  data.nodes.forEach(function (n) {
    // Side by side, not stacked: ECharts stacks the first value dimension, which on two value
    // axes is the hours, not the nodes.
    var shaded = {step: 'end', areaStyle: {opacity: 0.15}};
    specs.push({
      el: figure('nodes', 'Nodes by capacity type: ' + n.configuration, 'nodes'),
      option: Object.assign(base({type: 'value', name: 'nodes', minInterval: 1}), {
        color: [SPOT, ON_DEMAND],
        series: [line('spot', n.spot, shaded), line('on-demand', n.onDemand, shaded)]
      })
    });
  });

  var waits = base({type: 'value', name: 'share of started jobs', min: 0, max: 1,
    axisLabel: {formatter: function (v) { return Math.round(v * 100) + ' %'; }}});
  waits.xAxis = {type: 'value', name: 'waited at most (minutes)', nameLocation: 'middle', nameGap: 26, min: 0};
  waits.series = data.waits.map(function (l) { return line(l.configuration, l.points, {step: 'end'}); });
  specs.push({el: figure('waits', 'Wait before the first run (cumulative)', 'waits'), option: waits});

  // Every chart is set up before any is drawn, so the count is known when the last one finishes;
  // data-charts-rendered tells a reader (or a test) that the page is complete.
  var finished = 0;
  specs.forEach(function (spec) {
    var chart = echarts.init(spec.el, null, {renderer: 'canvas'});
    chart.on('finished', function once() {
      chart.off('finished', once);
      finished += 1;
      if (finished === specs.length) {
        document.body.dataset.chartsRendered = String(finished);
      }
    });
    charts.push({chart: chart, option: spec.option});
  });
  charts.forEach(function (c) { c.chart.setOption(c.option); });
  window.addEventListener('resize', function () {
    charts.forEach(function (c) { c.chart.resize(); });
  });
}());
