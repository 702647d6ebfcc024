sleep 30
