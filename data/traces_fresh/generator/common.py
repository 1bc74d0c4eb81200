import json
def U(t, bad=False): return {"action_type":"user","content":t,"_bad":bad}
def R(t, bad=False): return {"action_type":"response","content":t,"_bad":bad}
def T(name, args, obs, err=None, bad=False):
    return {"action_type":"tool_call","tool_name":name,"arguments":args,"observation":obs,"error":err,"_bad":bad}
def tool(name, desc, props, req, ro, de):
    return {"name":name,"description":desc,"inputSchema":{"type":"object","properties":{k:{"type":v} for k,v in props.items()},"required":req},"annotations":{"readOnlyHint":ro,"destructiveHint":de}}
def build(tid, domain, goal, init, steps, expected, why, family, dim=None):
    out=[]; bad=None
    for i,s in enumerate(steps,1):
        s=dict(s); sid="s%d"%i; b=s.pop("_bad")
        if b and bad is None: bad=sid
        d={"step_id":sid}; d.update(s); out.append(d)
    finals=[s["content"] for s in out if s["action_type"]=="response"]
    lab={"policy":"policy_%s.json"%domain,"expected":expected,"why":why,"family":family}
    if expected=="fail":
        assert dim and bad, tid
        lab["dimension"]=dim; lab["step_id"]=bad
    else:
        assert bad is None, tid
    return {"trace_id":tid,"goal":goal,"initial_state":init,"environment":None,"steps":out,"final_response":finals[-1] if finals else None,"label":lab}
