package kit

import "net/http"

// observed tells observe of each request once mux has served it, when
// r.Pattern holds the route it matched.
func observed(mux *http.ServeMux, observe func(*http.Request)) http.Handler {
	if observe == nil {
		return mux
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mux.ServeHTTP(w, r)
		observe(r)
	})
}
