vcl 4.1;
# A shared cache in front of channelnet instances (Debian's Varnish 7.1; docs/caching.md, "Varnish in
# front"). It stores only what the service says may be shared for a time (Cache-Control with a
# max-age and without private, no-store or no-cache), keyed by the URL, the headers the answer's Vary
# names and, for a request with Authorization, that Authorization: a caller never gets an object
# fetched for another caller's credentials. Everything else goes to an instance as sent.
#
# Addresses: edit the two backends below (one per instance; add more to the director in vcl_init).
# Run: varnishd -a :6081 -f /etc/varnish/varnish.vcl -s malloc,256m, and give the instances
# TRUST_PROXY=<this host's address> so rate limits see the client in X-Forwarded-For.

import directors;
import std;

# Readiness, not liveness: an instance that cannot reach its database answers /readyz 503.
probe ready {
    .url = "/readyz";
    .interval = 5s;
    .timeout = 2s;
    .window = 5;
    .threshold = 3;
    .initial = 3;  # healthy from the start: the first requests need not wait for three probes
}

backend one {
    .host = "127.0.0.1";
    .port = "8081";
    .probe = ready;
}

backend two {
    .host = "127.0.0.1";
    .port = "8082";
    .probe = ready;
}

sub vcl_init {
    # Every instance serves every request (all state is in the database): round robin over the healthy.
    new service = directors.round_robin();
    service.add_backend(one);
    service.add_backend(two);
}

sub vcl_recv {
    set req.backend_hint = service.backend();
    # The service reads no cookie anywhere; a browser's or an analytics cookie must not make every
    # request a pass (the builtin passes any request with a Cookie).
    unset req.http.Cookie;
    # Past its max-age an answer is fetched again while an instance is up (an edit shows within the
    # max-age the service gave); only while none is may a stale one be served (beresp.grace).
    if (std.healthy(req.backend_hint)) {
        set req.grace = 0s;
    }
    # The builtin passes every request with Authorization. Ours are looked up under their own
    # Authorization (vcl_hash), so the public answers a signed-in app asks for are still cached,
    # per caller; answers that depend on the caller say private and are never stored.
    if (req.http.Authorization && (req.method == "GET" || req.method == "HEAD")) {
        return (hash);
    }
    # Falls through to the builtin: writes and other methods pass, GET and HEAD are looked up.
}

sub vcl_hash {
    if (req.http.Authorization) {
        hash_data(req.http.Authorization);
    }
    # Falls through to the builtin: the URL and Host. The Vary of the answer adds its headers.
}

sub vcl_backend_response {
    # No explicit freshness: the service did not say the answer may be shared (the routes it does not
    # cover yet, errors). Never the default TTL of 120 s: pass such URLs for a while (hit-for-miss).
    if (beresp.http.Cache-Control !~ "(?i)(s-maxage|max-age)=") {
        set beresp.uncacheable = true;
        set beresp.ttl = 120s;
        return (deliver);
    }
    set beresp.grace = 30s;
    # An expired object is kept a minute more to revalidate with its ETag (If-None-Match: a 304
    # from any instance, which gives every instance's same bytes the same ETag).
    set beresp.keep = 60s;
    # Falls through to the builtin: private, no-store, no-cache, Set-Cookie, Vary: * or max-age=0
    # make the answer uncacheable (hit-for-miss), so it is fetched for every request.
}

sub vcl_deliver {
    # What the cache did, for operators and the test: HIT (served from a stored object), MISS (fetched
    # and stored), PASS (fetched for this request only, the answer not storable or the request passed).
    if (obj.uncacheable) {
        set resp.http.X-Cache = "PASS";
    } else if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
}
