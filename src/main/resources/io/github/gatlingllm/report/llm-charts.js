// gatling-llm report: turns each <figure class="chart"> and its JSON data into a uPlot chart.
// Hover: the legend shows the values under the cursor. Legend entries toggle their series.
// Time series, histograms and level curves zoom by dragging over the x axis; double-click resets.
// Once drawn, each figure gets data-drawn="true", and <body> data-charts / data-charts-drawn.
(function () {
  'use strict';
  var charts = {};
  window.llmCharts = charts;

  function num(v) {
    if (v == null || isNaN(v)) {
      return '–';
    }
    var a = Math.abs(v);
    var digits = a >= 100 ? 1 : a >= 1 ? 2 : 3;
    return String(+v.toFixed(digits));
  }

  function axisValues(u, splits) {
    return splits.map(function (v) {
      return v == null ? '' : String(+v.toFixed(6));
    });
  }

  function make(fig, spec) {
    var kind = spec.kind;
    var category = kind === 'category';
    var whole = kind === 'whole_histogram';
    var histogram = kind === 'histogram' || whole;
    var xs = spec.x;
    var data = [xs];
    var right = false;
    var series = [
      {
        label: spec.x_label,
        value: function (u, v, si, i) {
          if (i == null) {
            return '–';
          }
          if (category) {
            return spec.x_labels[i];
          }
          if (histogram) {
            return i + 1 < xs.length ? num(xs[i]) + '–' + num(xs[i + 1]) : num(xs[i]);
          }
          return num(v);
        }
      }
    ];
    spec.series.forEach(function (s) {
      data.push(s.y);
      right = right || !!s.right;
      var one = {
        label: s.label,
        stroke: s.color,
        width: 1.5,
        scale: s.right ? 'y2' : 'y',
        spanGaps: kind !== 'time',
        value: function (u, v) {
          return num(v);
        }
      };
      if (s.dashed && !category) {
        one.dash = [6, 4];
      }
      if (histogram) {
        one.paths = uPlot.paths.stepped({align: 1});
        one.fill = s.color + '33';
        one.points = {show: false};
      } else if (category) {
        one.paths = function () {
          return null;
        };
        one.points = {show: true, size: 10, width: 2, fill: s.dashed ? '#fff' : s.color};
      } else {
        one.points = {show: kind === 'xy' || xs.length < 40, size: 6};
      }
      series.push(one);
    });
    var yMax = spec.y_max;
    var axes = [
      {
        label: spec.x_label,
        values: category
          ? function (u, splits) {
              return splits.map(function (v) {
                return v === Math.round(v) && spec.x_labels[v] != null ? spec.x_labels[v] : '';
              });
            }
          : axisValues,
        incrs: category
          ? [1]
          : whole
            ? [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000,
               25000, 50000, 100000, 200000, 250000, 500000, 1000000]
            : undefined
      },
      {label: spec.y_label, scale: 'y', values: axisValues, size: 60}
    ];
    var scales = {
      x: {
        time: false,
        range: category
          ? function () {
              return [-0.5, xs.length - 0.5];
            }
          : undefined
      },
      y: {
        range: function (u, min, max) {
          var top = yMax != null ? yMax : max > 0 ? max * 1.05 : 1;
          return [Math.min(0, min), top];
        }
      }
    };
    if (right) {
      axes.push({
        label: spec.y2_label,
        scale: 'y2',
        side: 1,
        grid: {show: false},
        values: axisValues,
        size: 60
      });
      scales.y2 = {
        range: function (u, min, max) {
          return [Math.min(0, min), max > 0 ? max * 1.05 : 1];
        }
      };
    }
    var width = chartWidth(fig);
    var opts = {
      title: spec.title,
      width: width,
      height: 260,
      series: series,
      axes: axes,
      scales: scales,
      legend: {live: true},
      cursor: {drag: {x: !category, y: false, setScale: !category}},
      hooks: {
        draw: [
          function () {
            if (fig.getAttribute('data-drawn') !== 'true') {
              fig.setAttribute('data-drawn', 'true');
              drawn();
            }
          }
        ]
      }
    };
    var u = new uPlot(opts, data, fig.querySelector('.plot') || fig);
    charts[spec.id] = u;
    return u;
  }

  // Charts fill their row: as many of at least MIN_WIDTH px as fit side by side (gap 12 px, each
  // figure's padding and border 14 px), one per row on a narrow window.
  var MIN_WIDTH = 460;

  function chartWidth(fig) {
    var row = fig.parentNode.clientWidth || 640;
    var perRow = Math.max(1, Math.floor((row + 12) / (MIN_WIDTH + 14 + 12)));
    var width = Math.floor((row - 12 * (perRow - 1)) / perRow) - 14;
    return Math.max(320, width);
  }

  var total = 0;
  var done = 0;

  function drawn() {
    done++;
    document.body.setAttribute('data-charts-drawn', String(done));
  }

  function init() {
    var figs = document.querySelectorAll('figure.chart[data-chart]:not(.empty)');
    total = figs.length;
    document.body.setAttribute('data-charts', String(total));
    document.body.setAttribute('data-charts-drawn', '0');
    figs.forEach(function (fig) {
      var script = fig.querySelector('script[type="application/json"]');
      try {
        make(fig, JSON.parse(script.textContent));
      } catch (e) {
        fig.setAttribute('data-error', String(e));
      }
    });
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', init);
  } else {
    init();
  }
})();
