# dashboard.py: writes the static site of tools/history dashboard: an index (devices, latest verdicts, the
# device matrix) and a page per device (each benchmark over time, noise band, change points), Chart.js inlined.
"""The dashboard: plain HTML files that open from file:// or any web server, with no network.

Each page carries its data as a script and Debian's Chart.js (libjs-chart.js) inlined.  A device
page charts each benchmark's primary metric per run with a band of +-noise/2 (as tools/report
draws error bars), the change points of tools/history trend as red triangles and flagged runs as
grey crosses; hover shows a run's date and revision; drag across a chart to zoom, double-click
to reset, or set the date range for all charts at the top.  Charts are drawn as they are shown
(a page at a time, filtered by family or name), so a store of a thousand benchmarks stays usable.
"""

import argparse
import html
import json
import os
import re

import gbresults as gb

from . import against as hist
from . import runfile, trend

CHART_JS = "/usr/share/javascript/chart.js/chart.min.js"  # Debian's libjs-chart.js (3.9.1)
PAGE_SIZE = 24  # charts drawn per "show more"


def chart_js():
    try:
        with open(CHART_JS, encoding="utf-8") as handle:
            return handle.read()
    except OSError:
        raise gb.InputError(f"{CHART_JS} not found: the dashboard needs Debian's libjs-chart.js") from None


def gate_args():
    """tools/gate's defaults, for the latest run against its baseline."""
    return argparse.Namespace(threshold=5.0, alpha=0.05, min_noise=1.0, launch_noise=10.0, max_noise=5.0,
                              fail_on_missing=False, fail_on_error=False)


def page_name(fingerprint):
    return "device-" + re.sub(r"[^A-Za-z0-9_.-]", "_", fingerprint) + ".html"


def script_json(value):
    """JSON safe inside a <script> element."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")


def short(value):
    return None if value is None else float(f"{value:.6g}")


def epoch_ms(date):
    import datetime
    return int(datetime.datetime.fromisoformat(date).timestamp() * 1000)


def build(store, outdir, against):
    """Write the site into outdir; the number of device pages."""
    os.makedirs(outdir, exist_ok=True)
    library = chart_js()
    gate = hist.load_gate()
    devices = store.query("SELECT device_fingerprint, max(device), count(*), min(date), max(date) FROM runs "
                          "GROUP BY device_fingerprint ORDER BY max(device), device_fingerprint")
    summaries, matrix = [], {}
    for fingerprint, device, count, first, last in devices:
        runs = store.query("SELECT id, date, git_revision FROM runs WHERE device_fingerprint = ? "
                           "ORDER BY date, ingested_at", (fingerprint,))
        series = trend.load(store, fingerprint)
        for s in series.values():
            trend.find_changes(s)
            matrix.setdefault(s.name, {})[fingerprint] = (s.metric, s.values[-1], s.lower_is_better)
        latest = hist.Current.from_store(store, runs[-1][0])
        result, described, _ = hist_gate(store, latest, against, gate)
        changes = sum(len(s.changes) for s in series.values())
        summaries.append((fingerprint, device, count, first, last, result, described, changes))
        text = device_page(library, gate, device, fingerprint, runs, series, latest, result, described)
        gb.write_atomic(os.path.join(outdir, page_name(fingerprint)), text)
    gb.write_atomic(os.path.join(outdir, "index.html"), index_page(library, gate, summaries, matrix))
    return len(devices)


def hist_gate(store, current, against, gate):
    ids = hist.history_ids(store, current.fingerprint, against, current.id, current.date)
    if not ids:
        return None, f"no earlier run matches {against.text}", 0
    result = hist.compare(gate, hist.history_run(store, [i[0] for i in ids], current.run.device), current, gate_args())
    return result, f"{len(ids)} run(s), {against.text}, {ids[-1][1][:10]} to {ids[0][1][:10]}", len(ids)


# ---------------------------------------------------------------- pages

STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.REGRESSION{background:#fdd}.improved{background:#dfd}.unreliable{background:#eee}.inconclusive{background:#ffd}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:14px}
.card{border:1px solid #ddd;border-radius:6px;padding:6px}.card h3{font-size:12px;margin:0 0 4px;word-break:break-all}
.card .box{position:relative;height:240px}.controls{display:flex;flex-wrap:wrap;gap:12px;align-items:center}
.muted{color:#777}
"""


def head(title, library):
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style><script>{library}</script>"
            "<script>window.pageErrors=0;addEventListener('error',function(){window.pageErrors++;"
            "document.documentElement.dataset.errors=window.pageErrors;});</script></head>")


def verdict_class(verdict):
    return verdict.split(":")[0]


def verdict_table(gate, result):
    if result is None:
        return "<p class='muted'>No earlier run to compare with.</p>"
    rows = [gate.row(c) for c in result.comparisons]
    shown = [(c, r) for c, r in zip(result.comparisons, rows) if c.verdict != gb.UNCHANGED]
    same = len(rows) - len(shown)
    out = ["<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in gate.HEADER) + "</tr>"]
    for c, cells in shown:
        tds = (f"<td{' class=num' if 1 < i < 6 else ''}>{html.escape(cell)}</td>" for i, cell in enumerate(cells))
        out.append(f"<tr class='{verdict_class(c.verdict)}'>" + "".join(tds) + "</tr>")
    out.append("</table>")
    out.append(f"<p>{same} benchmark(s) unchanged (within ±5%).</p>")
    lists = [(t, items) for t, items in gate.key_lists(result) if items]
    for title, items in lists:
        out.append(f"<details><summary>{html.escape(title)} ({len(items)})</summary><ul>" + "".join(
            f"<li>{html.escape(k)}{(': ' + html.escape(m)) if m else ''}</li>" for k, m in items) + "</ul></details>")
    return "".join(out)


def device_page(library, gate, device, fingerprint, runs, series, latest, result, described):
    index = {run_id: i for i, (run_id, _, _) in enumerate(runs)}
    benches = []
    for (_, name), s in sorted(series.items()):
        x = [index[r] for r in s.run_ids]
        bench = {"n": name, "f": runfile.family(name),
                 "m": s.metric, "lib": int(s.lower_is_better), "v": [short(v) for v in s.values],
                 "e": [short(e) for e in s.noise],
                 "fl": [i for i, f in enumerate(s.flagged) if f],
                 "cp": [[c.index, round(c.step, 4)] for c in s.changes]}
        if x != list(range(len(runs))):
            bench["x"] = x
        benches.append(bench)
    data = {"device": device, "fingerprint": fingerprint,
            "runs": [[epoch_ms(d), rev or "", d, rid[:12]] for rid, d, rev in runs], "benches": benches,
            "pageSize": PAGE_SIZE}
    counts = "" if result is None else html.escape(hist.counts(gate, result))
    title = f"{device} ({fingerprint})"
    return (head(f"gpu-bench history: {title}", library) +
            f"<body><p><a href='index.html'>All devices</a></p><h1>{html.escape(title)}</h1>"
            f"<p>{len(runs)} runs, {runs[0][1][:10]} to {runs[-1][1][:10]}; {len(benches)} benchmarks; "
            f"{sum(len(b['cp']) for b in benches)} change point(s).</p>"
            f"<h2>Latest run against its baseline</h2><p>Run {latest.id[:12]} of {html.escape(latest.date)} against "
            f"{html.escape(described)}: {counts}</p>{verdict_table(gate, result)}"
            "<h2>Each benchmark over time</h2>"
            "<div class='controls'><label>Family <select id='family'><option value=''>all</option></select></label>"
            "<label>Name contains <input id='search' size='30'></label>"
            "<label><input type='checkbox' id='changed'> with change points only</label>"
            "<label>From <input type='range' id='from' min='0' value='0'></label>"
            "<label>to <input type='range' id='to' min='0'></label><span id='range'></span>"
            "<button id='reset'>Whole range</button><span id='count' class='muted'></span></div>"
            "<p class='muted'>Line: the primary metric per run; band: ±noise/2; red triangles: change points; "
            "grey crosses: runs flagged (host busy, device slow, not converged). Drag across a chart to zoom, "
            "double-click it to zoom out.</p>"
            "<div id='charts' class='grid'></div><p><button id='more'>Show more</button></p>"
            f"<script>const DATA={script_json(data)};</script><script>{DEVICE_JS}</script></body></html>")


def index_page(library, gate, summaries, matrix):
    rows = []
    for fingerprint, device, count, first, last, result, described, changes in summaries:
        verdicts = "-" if result is None else html.escape(hist.counts(gate, result))
        failed = result is not None and bool(gate.failure_reasons(result, gate_args()))
        rows.append(f"<tr class='{'REGRESSION' if failed else ''}'><td><a href='{page_name(fingerprint)}'>"
                    f"{html.escape(device)}</a></td><td>{html.escape(fingerprint)}</td><td class=num>{count}</td>"
                    f"<td>{first[:10]} to {last[:10]}</td><td class=num>{changes}</td>"
                    f"<td>{'FAIL' if failed else 'PASS' if result else '-'}: {verdicts}</td></tr>")
    devices = [(fp, device) for fp, device, *_ in summaries]
    table = []
    for name in sorted(matrix):
        cells = matrix[name]
        table.append([name, runfile.family(name)] + [
            None if fp not in cells else [cells[fp][0], short(cells[fp][1]), int(cells[fp][2])] for fp, _ in devices])
    data = {"devices": [[fp, d, page_name(fp)] for fp, d in devices], "matrix": table}
    return (head("gpu-bench history", library) +
            "<body><h1>gpu-bench history</h1><h2>Devices</h2><table><tr><th>Device</th><th>Fingerprint</th>"
            "<th>Runs</th><th>Dates</th><th>Change points</th><th>Latest run against its baseline</th></tr>"
            + "".join(rows) + "</table>"
            "<h2>Device matrix</h2><p class='muted'>Each benchmark's primary metric in the latest run of each "
            "device, and its ratio to the best device (1 = best).</p>"
            "<div class='controls'><label>Family <select id='family'><option value=''>all</option></select></label>"
            "<label>Name contains <input id='search' size='30'></label>"
            "<label>Chart <select id='pick'></select></label></div>"
            "<div class='card'><div class='box'><canvas id='matrixChart' data-kind='matrix'></canvas></div></div>"
            "<table id='matrix'></table>"
            f"<script>const DATA={script_json(data)};</script><script>{INDEX_JS}</script></body></html>")


COMMON_JS = r"""
function si(v,digits){if(v===null||v===undefined)return '-';const a=Math.abs(v),d=digits||3;
 for(const [p,s] of [['P',1e15],['T',1e12],['G',1e9],['M',1e6],['k',1e3]])if(a>=s)return +(v/s).toPrecision(d)+' '+p;
 if(a>0&&a<1){for(const [p,s] of [['m',1e-3],['µ',1e-6],['n',1e-9]])if(a>=s)return +(v/s).toPrecision(d)+' '+p;}
 return +v.toPrecision(d)+' ';}
function unit(m){return m==='real_time'?'s':m.endsWith('_per_second')?({bytes_per_second:'B/s',flop_per_second:'FLOP/s',items_per_second:'items/s'}[m]||m.slice(0,-11)+'/s'):m;}
function fmt(m,v,digits){return si(v,digits)+unit(m);}
function families(rows,get,select){const seen=[...new Set(rows.map(get))].sort();
 for(const f of seen){const o=document.createElement('option');o.value=o.textContent=f;select.appendChild(o);}}
function day(ms){return new Date(ms).toISOString().slice(0,10);}
"""

DEVICE_JS = COMMON_JS + r"""
const runs=DATA.runs, charts=[];let shown=0, list=[];
const el=id=>document.getElementById(id);
families(DATA.benches,b=>b.f,el('family'));
const last=Math.max(runs.length-1,0);
el('from').max=el('to').max=last;el('to').value=last;
function range(){const a=+el('from').value,b=+el('to').value;const lo=Math.min(a,b),hi=Math.max(a,b);
 return runs.length?[runs[lo][0],runs[hi][0]]:[0,0];}
function showRange(){const [a,b]=range();el('range').textContent=runs.length?day(a)+' to '+day(b):'';}
function matches(b){const f=el('family').value,s=el('search').value.toLowerCase();
 return (!f||b.f===f)&&(!s||b.n.toLowerCase().includes(s))&&(!el('changed').checked||b.cp.length>0);}
function points(b){const xs=b.x||b.v.map((_,i)=>i);return xs.map((r,i)=>({r:r,i:i,x:runs[r][0],y:b.v[i]}));}
function draw(b){
 const card=document.createElement('div');card.className='card';
 const h=document.createElement('h3');h.textContent=b.n+' ('+b.m+')';card.appendChild(h);
 const box=document.createElement('div');box.className='box';const canvas=document.createElement('canvas');
 canvas.dataset.kind='series';canvas.dataset.name=b.n;box.appendChild(canvas);card.appendChild(box);
 el('charts').appendChild(card);
 const p=points(b), e=b.e;
 const band=(s)=>p.map(q=>({x:q.x,y:e[q.i]===null?q.y:q.y*(1+s*e[q.i]/2),r:q.r}));
 const cps=b.cp.map(([i,step])=>({x:p[i].x,y:p[i].y,r:p[i].r,step:step}));
 const flagged=b.fl.map(i=>({x:p[i].x,y:p[i].y,r:p[i].r}));
 const [lo,hi]=range();
 const chart=new Chart(canvas,{type:'line',data:{datasets:[
   {label:'-noise/2',data:band(-1),pointRadius:0,borderWidth:0,fill:false},
   {label:'noise band',data:band(1),pointRadius:0,borderWidth:0,fill:'-1',backgroundColor:'rgba(54,162,235,0.18)'},
   {label:b.m,data:p,borderColor:'rgb(54,162,235)',backgroundColor:'rgb(54,162,235)',pointRadius:p.length>200?0:2,borderWidth:1.5,tension:0},
   {label:'change point',data:cps,type:'scatter',pointStyle:'triangle',pointRadius:8,backgroundColor:'rgb(220,30,30)',borderColor:'rgb(150,0,0)'},
   {label:'flagged',data:flagged,type:'scatter',pointStyle:'crossRot',pointRadius:6,borderColor:'rgb(120,120,120)'}]},
  options:{animation:false,responsive:true,maintainAspectRatio:false,parsing:true,normalized:true,
   interaction:{mode:'nearest',intersect:false,axis:'x'},
   scales:{x:{type:'linear',min:lo,max:hi,ticks:{callback:v=>day(v),maxTicksLimit:6}},
           y:{ticks:{callback:v=>fmt(b.m,v,5)}}},
   plugins:{legend:{display:false},
    tooltip:{filter:i=>i.datasetIndex>=2,callbacks:{
     title:items=>{const r=runs[items[0].raw.r];return r[2]+'  revision '+(r[1]||'-')+'  run '+r[3];},
     label:i=>i.datasetIndex===3?'change point: '+(i.raw.step>0?'+':'')+(i.raw.step*100).toFixed(1)+'%':
       i.datasetIndex===4?'flagged run':fmt(b.m,i.raw.y)+(e[i.raw.i]!==undefined&&e[i.raw.i]!==null&&i.datasetIndex===2?'  noise '+(e[i.raw.i]*100).toPrecision(2)+'%':'')}}}}});
 zoomable(chart,canvas);charts.push(chart);
 canvas.dataset.points=p.length;canvas.dataset.changePoints=cps.length;
 canvas.dataset.changeDates=b.cp.map(([i])=>runs[p[i].r][2]).join(' ');
 canvas.dataset.rendered=(chart.chartArea&&chart.chartArea.width>0&&chart.getDatasetMeta(2).data.length===p.length)?'yes':'no';
}
function zoomable(chart,canvas){let start=null;
 canvas.addEventListener('mousedown',ev=>{start=ev.offsetX;});
 canvas.addEventListener('mouseup',ev=>{if(start===null)return;const a=Math.min(start,ev.offsetX),b=Math.max(start,ev.offsetX);start=null;
  if(b-a<5)return;const s=chart.scales.x;chart.options.scales.x.min=s.getValueForPixel(a);chart.options.scales.x.max=s.getValueForPixel(b);chart.update('none');});
 canvas.addEventListener('dblclick',()=>{const [lo,hi]=range();chart.options.scales.x.min=lo;chart.options.scales.x.max=hi;chart.update('none');});}
function more(){const next=list.slice(shown,shown+DATA.pageSize);next.forEach(draw);shown+=next.length;status();}
function status(){el('count').textContent=shown+' of '+list.length+' charts shown';el('more').style.display=shown<list.length?'':'none';
 const drawn=document.querySelectorAll('canvas[data-rendered="yes"]').length;
 document.documentElement.dataset.chartsShown=shown;document.documentElement.dataset.chartsRendered=drawn;}
function refill(){charts.splice(0).forEach(c=>c.destroy());el('charts').textContent='';shown=0;list=DATA.benches.filter(matches);more();}
function rezoom(){showRange();const [lo,hi]=range();for(const c of charts){c.options.scales.x.min=lo;c.options.scales.x.max=hi;c.update('none');}}
el('family').onchange=refill;el('search').oninput=refill;el('changed').onchange=refill;el('more').onclick=more;
el('from').oninput=rezoom;el('to').oninput=rezoom;el('reset').onclick=()=>{el('from').value=0;el('to').value=last;rezoom();};
showRange();refill();
"""

INDEX_JS = COMMON_JS + r"""
const el=id=>document.getElementById(id), devs=DATA.devices;
families(DATA.matrix,r=>r[1],el('family'));
function ratio(row,k){const c=row[2+k];if(!c)return null;const vals=row.slice(2).filter(x=>x).map(x=>x[1]);
 const best=c[2]?Math.min(...vals):Math.max(...vals);return c[2]?best/c[1]:c[1]/best;}
let chart=null;
function table(){const f=el('family').value,s=el('search').value.toLowerCase();
 const rows=DATA.matrix.filter(r=>(!f||r[1]===f)&&(!s||r[0].toLowerCase().includes(s)));
 const t=el('matrix');t.textContent='';const h=t.insertRow();
 for(const c of ['Benchmark','Metric'].concat(devs.map(d=>d[1]+' ('+d[0]+')'))){const th=document.createElement('th');th.textContent=c;h.appendChild(th);}
 for(const r of rows.slice(0,2000)){const tr=t.insertRow();tr.insertCell().textContent=r[0];
  const m=(r.slice(2).find(x=>x)||['-'])[0];tr.insertCell().textContent=m;
  devs.forEach((_,k)=>{const c=tr.insertCell();c.className='num';const v=r[2+k];
   c.textContent=v?fmt(v[0],v[1])+'  ('+ratio(r,k).toFixed(2)+')':'-';});}
 const pick=el('pick');const keep=pick.value;pick.textContent='';
 for(const r of rows.slice(0,2000)){const o=document.createElement('option');o.value=o.textContent=r[0];pick.appendChild(o);}
 if(rows.some(r=>r[0]===keep))pick.value=keep;plot();}
function plot(){const r=DATA.matrix.find(x=>x[0]===el('pick').value);const canvas=el('matrixChart');
 if(chart)chart.destroy();chart=null;if(!r){canvas.dataset.rendered='no';return;}
 const m=(r.slice(2).find(x=>x)||['real_time'])[0];
 chart=new Chart(canvas,{type:'bar',data:{labels:devs.map(d=>d[1]),datasets:[{label:r[0],data:devs.map((_,k)=>r[2+k]?r[2+k][1]:null),backgroundColor:'rgb(54,162,235)'}]},
  options:{animation:false,responsive:true,maintainAspectRatio:false,plugins:{legend:{display:false},
   tooltip:{callbacks:{label:i=>fmt(m,i.raw)}}},scales:{y:{ticks:{callback:v=>fmt(m,v)}}}}});
 canvas.dataset.rendered=(chart.chartArea&&chart.chartArea.width>0)?'yes':'no';
 document.documentElement.dataset.chartsRendered=document.querySelectorAll('canvas[data-rendered="yes"]').length;}
el('family').onchange=table;el('search').oninput=table;el('pick').onchange=plot;table();
"""
