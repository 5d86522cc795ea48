package main

import (
	"net/http"
	"os"
	"path/filepath"
)

const avatarDir = "/var/app/avatars"

func avatarHandler(w http.ResponseWriter, r *http.Request) {
	user := r.URL.Query().Get("user")
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
