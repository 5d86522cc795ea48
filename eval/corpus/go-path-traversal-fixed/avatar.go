package main

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
)

const avatarDir = "/var/app/avatars"

var validUser = regexp.MustCompile(`^[a-z0-9_]{1,32}$`)

func avatarHandler(w http.ResponseWriter, r *http.Request) {
	user := r.URL.Query().Get("user")
	if !validUser.MatchString(user) {
		http.Error(w, "bad user", http.StatusBadRequest)
		return
	}
	data, err := os.ReadFile(filepath.Join(avatarDir, user+".png"))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Write(data)
}

func main() {
	http.HandleFunc("/avatar", avatarHandler)
	http.ListenAndServe(":8080", nil)
}
